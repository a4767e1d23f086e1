/**
 * Time for the ledger: timestamps to epoch ms, and time expressions found in a
 * statement ("yesterday", "last March", "in two weeks", "on May 5, 2023")
 * resolved against the date of the session that holds it.
 */

const DAY = 86_400_000;
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  couple: 2,
  few: 3,
};
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };

/** Epoch ms of a timestamp in any format Date understands (plus LoCoMo's "1:56 pm on 8 May, 2023"), or undefined. */
export function toMs(time: string | undefined): number | undefined {
  if (!time) return undefined;
  const direct = Date.parse(time);
  if (Number.isFinite(direct)) return direct;
  const loose = time.replace(/^.*?\bon\s+/i, "").replace(/,/g, "");
  const parsed = Date.parse(loose);
  return Number.isFinite(parsed) ? parsed : undefined;
}

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** "YYYY-MM-DD" of a timestamp, or undefined when it cannot be read. */
export function dayOf(time: string | undefined): string | undefined {
  const ms = toMs(time);
  return ms === undefined ? undefined : isoDay(ms);
}

function count(word: string): number {
  return /^\d+$/.test(word) ? Number(word) : (NUMBERS[word] ?? 1);
}

export interface ResolvedTime {
  /** ISO day the statement points at. */
  day: string;
  /** The expression as written. */
  expression: string;
}

const MONTH_RE = MONTHS.join("|");
const EXPLICIT = [
  /\b(\d{4})-(\d{2})-(\d{2})\b/,
  new RegExp(`\\b(${MONTH_RE})\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`, "i"),
  new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_RE})(?:,?\\s+(\\d{4}))?\\b`, "i"),
];

/** The first time expression in `text`, resolved against `anchor` (a session date); undefined when none. */
export function resolveTimeExpression(text: string, anchor: string | undefined): ResolvedTime | undefined {
  const base = toMs(anchor);
  const lower = text.toLowerCase();
  const iso = EXPLICIT[0]!.exec(text);
  if (iso) return { day: `${iso[1]}-${iso[2]}-${iso[3]}`, expression: iso[0] };
  const baseYear = base !== undefined ? new Date(base).getUTCFullYear() : undefined;
  const md = EXPLICIT[1]!.exec(text);
  if (md) {
    const year = md[3] ? Number(md[3]) : baseYear;
    if (year !== undefined)
      return { day: ymd(year, MONTHS.indexOf(md[1]!.toLowerCase()), Number(md[2])), expression: md[0] };
  }
  const dm = EXPLICIT[2]!.exec(text);
  if (dm) {
    const year = dm[3] ? Number(dm[3]) : baseYear;
    if (year !== undefined)
      return { day: ymd(year, MONTHS.indexOf(dm[2]!.toLowerCase()), Number(dm[1])), expression: dm[0] };
  }
  if (base === undefined) return undefined;
  const shift = (days: number, expression: string) => ({ day: isoDay(base + days * DAY), expression });
  const simple: Array<[RegExp, number]> = [
    [/\byesterday\b/, -1],
    [/\btoday\b|\btonight\b|\bthis morning\b|\bthis evening\b/, 0],
    [/\btomorrow\b/, 1],
    [/\blast week(?:end)?\b/, -7],
    [/\bnext week(?:end)?\b/, 7],
    [/\blast month\b/, -30],
    [/\bnext month\b/, 30],
    [/\blast year\b/, -365],
    [/\bnext year\b/, 365],
  ];
  for (const [re, days] of simple) {
    const m = re.exec(lower);
    if (m) return shift(days, m[0]);
  }
  const ago =
    /\b(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|couple|few)\s+(?:of\s+)?(day|week|month|year)s?\s+ago\b/.exec(
      lower,
    );
  if (ago) return shift(-count(ago[1]!) * UNIT_DAYS[ago[2]!]!, ago[0]);
  const ahead =
    /\bin\s+(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|couple|few)\s+(?:of\s+)?(day|week|month|year)s?\b/.exec(
      lower,
    );
  if (ahead) return shift(count(ahead[1]!) * UNIT_DAYS[ahead[2]!]!, ahead[0]);
  const weekday = new RegExp(`\\b(last|next|this|on)\\s+(${WEEKDAYS.join("|")})\\b`).exec(lower);
  if (weekday) {
    const target = WEEKDAYS.indexOf(weekday[2]!);
    const today = new Date(base).getUTCDay();
    let diff = target - today;
    if (weekday[1] === "last") diff = diff >= 0 ? diff - 7 : diff;
    else if (weekday[1] === "next") diff = diff <= 0 ? diff + 7 : diff;
    return shift(diff, weekday[0]);
  }
  const month = new RegExp(`\\b(last|next|in|this)\\s+(${MONTH_RE})\\b`).exec(lower);
  if (month) {
    const d = new Date(base);
    const target = MONTHS.indexOf(month[2]!);
    let year = d.getUTCFullYear();
    if (month[1] === "last" && target >= d.getUTCMonth()) year--;
    if (month[1] === "next" && target <= d.getUTCMonth()) year++;
    return { day: ymd(year, target, 1), expression: month[0] };
  }
  return undefined;
}

function ymd(year: number, monthIndex: number, day: number): string {
  return isoDay(Date.UTC(year, monthIndex, Math.min(Math.max(day, 1), 31)));
}
