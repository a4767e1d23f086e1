/**
 * Date parsing for the many date styles of the releases. Returns an ISO 8601
 * string (date-only when the source has no time of day), or undefined.
 */
const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

const pad = (n: number) => String(n).padStart(2, "0");

function iso(y: number, mo: number, d: number, h?: number, mi?: number, s?: number): string | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return undefined;
  const date = `${y}-${pad(mo)}-${pad(d)}`;
  return h === undefined ? date : `${date}T${pad(h)}:${pad(mi ?? 0)}:${pad(s ?? 0)}`;
}

function hour12(h: number, ampm: string | undefined): number {
  if (!ampm) return h;
  const pm = ampm.toLowerCase() === "pm";
  return (h % 12) + (pm ? 12 : 0);
}

/**
 * Accepts: `2023-05-20`, `2023-05-20T13:45:00Z`, `2023/05/20 (Sat) 13:45`
 * (LongMemEval), `1:56 pm on 8 May, 2023` (LoCoMo), `May 8, 2023`, `8 May 2023`.
 */
export function parseLooseTime(input: string | undefined | null): string | undefined {
  if (!input) return undefined;
  const s = input.trim();
  let m =
    /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s*\([A-Za-z]+\))?(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(am|pm)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(
      s,
    );
  if (m) {
    const h = m[4] === undefined ? undefined : hour12(Number(m[4]), m[7]);
    return iso(
      Number(m[1]),
      Number(m[2]),
      Number(m[3]),
      h,
      m[5] ? Number(m[5]) : undefined,
      m[6] ? Number(m[6]) : undefined,
    );
  }
  m = /^(\d{1,2}):(\d{2})\s*(am|pm)?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(s);
  if (m) {
    const mo = MONTHS[(m[5] ?? "").slice(0, 3).toLowerCase()];
    if (!mo) return undefined;
    return iso(Number(m[6]), mo, Number(m[4]), hour12(Number(m[1]), m[3]), Number(m[2]), 0);
  }
  m = /^([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/.exec(s);
  if (m) {
    const mo = MONTHS[(m[1] ?? "").slice(0, 3).toLowerCase()];
    return mo ? iso(Number(m[3]), mo, Number(m[2])) : undefined;
  }
  m = /^(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})$/.exec(s);
  if (m) {
    const mo = MONTHS[(m[2] ?? "").slice(0, 3).toLowerCase()];
    return mo ? iso(Number(m[3]), mo, Number(m[1])) : undefined;
  }
  return undefined;
}
