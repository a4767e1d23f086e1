/**
 * Per-message times for SubtleMemory, which dates sessions only. The
 * reference harness spaces a session's messages 30 s apart, shrinking the step
 * so the last message lands within 90% of the gap to the next session
 * (the released `subtlememory_converter.py`). Unlike the reference, which drops the
 * seconds and the UTC offset on the way, this keeps the session's own offset.
 */

const STEP_MS = 30_000;
const FILL = 0.9;

interface Instant {
  /** Milliseconds since the epoch (naive times read as UTC). */
  epoch: number;
  /** The source's offset suffix: "Z", "+08:00", or "" when it had none. */
  suffix: string;
  offsetMinutes: number;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Reads an ISO date-time; date-only or other strings give undefined (no time of day to step from). */
export function readInstant(iso: string): Instant | undefined {
  const m = ISO.exec(iso);
  if (!m) return undefined;
  const ms = m[7] ? Math.round(Number(`0.${m[7]}`) * 1000) : 0;
  const local = Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6] ?? 0),
    ms,
  );
  const zone = m[8] ?? "";
  let offsetMinutes = 0;
  if (zone && zone !== "Z") {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
    if (z) offsetMinutes = (z[1] === "-" ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3]));
  }
  const suffix = zone && zone !== "Z" ? `${zone.slice(0, 3)}:${zone.slice(-2)}` : zone;
  return { epoch: local - offsetMinutes * 60_000, suffix, offsetMinutes };
}

function format(epoch: number, like: Instant): string {
  const shifted = new Date(Math.floor(epoch) + like.offsetMinutes * 60_000).toISOString();
  const withMs = shifted.slice(20, 23) !== "000";
  return shifted.slice(0, withMs ? 23 : 19) + like.suffix;
}

/**
 * Times for `count` messages of a session starting at `start`, given the next
 * session's start. Without a session time of day, every message gets `start`.
 */
export function spreadTurnTimes(
  start: string | undefined,
  next: string | undefined,
  count: number,
): Array<string | undefined> {
  if (!start) return Array.from({ length: count }, () => undefined);
  const from = readInstant(start);
  if (!from) return Array.from({ length: count }, () => start);
  let step = count > 1 ? STEP_MS : 0;
  const to = next ? readInstant(next) : undefined;
  if (count > 1 && to) {
    const gap = to.epoch - from.epoch;
    // A next session that is not later is a data quirk; the reference keeps the default step then.
    if (gap > 0 && (count - 1) * STEP_MS > gap * FILL) step = (gap * FILL) / (count - 1);
  }
  return Array.from({ length: count }, (_, i) => (i === 0 ? start : format(from.epoch + i * step, from)));
}
