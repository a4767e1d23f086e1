/** When a memory holds: the one rule search, tallies and `Ledger.current` share. */
import type { Memory } from "./types.ts";

/** Whether a memory holds at `at`: recorded by then and inside its valid interval. */
export function validAt(
  m: Pick<Memory, "status" | "recordedAt" | "validFrom" | "validTo" | "kind">,
  at: string | undefined,
): boolean {
  if (m.status === "retired") return false;
  if (at === undefined) return m.status === "active" || m.status === "contested";
  if (m.recordedAt && m.recordedAt > at) return false;
  if (m.validFrom && m.validFrom > at && m.kind !== "plan" && m.kind !== "schedule") return false;
  return !(m.validTo && m.validTo <= at);
}
