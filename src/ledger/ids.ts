import { createHash } from "node:crypto";
import { toMs } from "./time.ts";

/** A short stable id from its parts, so replaying the same input writes the same ids. */
export function stableId(prefix: string, ...parts: string[]): string {
  return `${prefix}_${createHash("sha1").update(parts.join("\u0000")).digest("hex").slice(0, 16)}`;
}

/** A timestamp as a sortable UTC ISO string, or undefined when it cannot be read. */
export function normaliseTime(time: string | undefined): string | undefined {
  const ms = toMs(time);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}
