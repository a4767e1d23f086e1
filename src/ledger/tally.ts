/**
 * Tallies: every recorded entry of a counted quantity — an `expense:` or `log:`
 * event attribute ("$3.41 on coffee", "7,935 steps") — returned as one result
 * for questions that aggregate ("how much have I spent on coffee", "how many
 * steps have I taken"). Ranking finds the k sessions most like the question, but
 * a total needs every entry, and the entries of a week of coffees sit in more
 * sessions than k, each one a near-copy of the others. Events complement each
 * other (resolve.ts), so the ledger holds them all; the tally lists them in time
 * order with their sessions and, where every amount has the same unit, their sum,
 * after the goals for the same thing ("coffee under $45 per week"; every
 * version, the standing one marked) when the question asks about progress.
 */
import { headWord } from "./extract/attributes.ts";
import type { NamespaceIndex } from "./namespace-index.ts";
import type { LedgerStore } from "./store.ts";
import { GOAL, TALLIED } from "./tallied.ts";
import { type Hit, type Memory, USER } from "./types.ts";
import { validAt } from "./validity.ts";
import { viewHit } from "./view-hit.ts";

/** Words that ask for a sum, a count, a comparison over time or progress against a target. */
const AGGREGATE =
  /\b(?:total|totals|how much|how many|so far|altogether|in all|sum|add up|adds up|budget|goal|on track|average|overall|most|least|highest|lowest|fewest)\b/i;

/** Words that ask about progress against a target: only then is the standing goal shown. */
const PROGRESS = /\b(?:goal|goals|budget|target|limit|on track|meeting|reach|reaching|hit)\b/i;

/** Words that name a whole family of tallied attributes ("my food spending" is every expense). */
const FAMILY_CUES: Record<string, RegExp> = {
  expense: /\b(?:spen[dt]|spending|expenses?|expenditures?|costs?|money|budget|paid|pay)\b/i,
};

/** Entries listed in full; older ones still count in the sum. */
const MAX_LISTED = 60;

/** The words of a question as attribute things: "coffees" → "coffee". */
function thingsNamed(question: string): Set<string> {
  return new Set((question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => headWord(w) ?? w));
}

/** "1 entry", "3 entries". */
export function entriesOf(n: number): string {
  return `${n} ${n === 1 ? "entry" : "entries"}`;
}

/** The thing an attribute counts or targets, singular: `log:steps` and `goal:step` → "step". */
function thing(tail: string): string {
  return headWord(tail) ?? tail;
}

/**
 * The tallied attributes a question asks to aggregate: those whose head word the
 * question names ("coffee", "steps"), or, failing that, every attribute of a
 * family the question names ("spending"). None without an aggregation cue.
 */
export function talliesAskedFor(question: string, attributes: Iterable<string>): string[] {
  if (!AGGREGATE.test(question)) return [];
  const words = thingsNamed(question);
  const named: string[] = [];
  const family: string[] = [];
  for (const attribute of attributes) {
    const m = TALLIED.exec(attribute);
    if (!m) continue;
    if (words.has(thing(m[2]!))) named.push(attribute);
    else if (FAMILY_CUES[m[1]!]?.test(question)) family.push(attribute);
  }
  return (named.length ? named : family).sort();
}

interface Amount {
  unit: string;
  value: number;
}

/** The amount at the start of an entry's value: "$3.41 on coffee" → $ 3.41; "7,935 steps" → steps 7935. */
export function amountOf(value: string): Amount | undefined {
  const money = /^\$\s?([\d,]+(?:\.\d+)?)/.exec(value);
  if (money) return { unit: "$", value: Number(money[1]!.replace(/,/g, "")) };
  const counted = /^([\d,]+(?:\.\d+)?)\s+([\p{L}-]+)/u.exec(value);
  if (counted) return { unit: counted[2]!.toLowerCase(), value: Number(counted[1]!.replace(/,/g, "")) };
  return undefined;
}

function formatSum(unit: string, total: number): string {
  const rounded = Math.round(total * 100) / 100;
  if (unit === "$") return `$${rounded.toFixed(2)}`;
  return `${rounded.toLocaleString("en-US")} ${unit}`;
}

type Period = "day" | "week" | "month";

/** The period a question compares or checks against: "my daily step goal", "which week … the most". */
export function periodOf(question: string): Period | undefined {
  if (/\b(?:daily|per day|a day|each day|every day|which day|today)\b/i.test(question)) return "day";
  if (/\bweek(?:s|ly)?\b/i.test(question)) return "week";
  if (/\bmonth(?:s|ly)?\b/i.test(question)) return "month";
  return undefined;
}

/**
 * The period a day (YYYY-MM-DD) falls in: itself, its week of the month (days
 * 1–7 are the 1st week, 8–14 the 2nd, …, 29–31 the 5th), or its month. Weeks
 * of the month rather than Monday weeks: "which week in this month" means the
 * month's own weeks, and Memora counts them so.
 */
function periodKey(day: string, period: Period): string {
  if (period === "day") return day;
  const month = day.slice(0, 7);
  if (period === "month") return month;
  const week = Math.ceil(Number(day.slice(8, 10)) / 7);
  const first = (week - 1) * 7 + 1;
  const last = Math.min(week * 7, new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 0)).getUTCDate());
  const two = (n: number) => String(n).padStart(2, "0");
  return `${month} week ${week} (${month}-${two(first)} to ${month}-${two(last)})`;
}

/**
 * Sums per period, when the question names one and the entries fall in more
 * than one: the reader compares weeks or checks days against a goal without
 * adding up dozens of dated amounts itself. None when any entry is undated, or
 * when every period holds one entry (the list already says it).
 */
function subtotals(days: readonly string[], amounts: readonly Amount[], unit: string, period?: Period): string[] {
  if (!period || days.some((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d))) return [];
  const groups = new Map<string, { total: number; n: number }>();
  days.forEach((d, i) => {
    const key = periodKey(d, period);
    const g = groups.get(key) ?? { total: 0, n: 0 };
    g.total += amounts[i]!.value;
    g.n++;
    groups.set(key, g);
  });
  if (groups.size < 2 || groups.size === days.length) return [];
  return [
    `By ${period}:`,
    ...[...groups].map(([key, g]) => `  ${key}: ${formatSum(unit, g.total)} (${entriesOf(g.n)})`),
  ];
}

export interface TallyInput {
  question: string;
  /** Normalised question time: entries told later are left out. */
  at?: string;
  /** Only entries of these sessions count (undefined: all). */
  visible: (sessionId: string) => boolean;
  /** Only the user's entries (the question is about the user). */
  userOnly: boolean;
}

/** One result listing every entry of the attributes the question aggregates, or undefined. */
export function tally(store: LedgerStore, index: NamespaceIndex, input: TallyInput): Hit | undefined {
  const attributes = talliesAskedFor(input.question, index.tallies.keys());
  if (!attributes.length) return undefined;
  // An entry or goal counts when it is not forgotten, visible, told by the question time, and the user's if asked about.
  const counts = (rowid: number): boolean => {
    const h = index.memoryHeads.get(rowid);
    if (!h || h.status === "retired" || !input.visible(h.sessionId)) return false;
    if (input.at && h.recordedAt && h.recordedAt > input.at) return false;
    return !input.userOnly || h.subject === USER;
  };
  const rowids = attributes.flatMap((attribute) => [...(index.tallies.get(attribute) ?? [])].filter(counts));
  if (!rowids.length) return undefined;
  // Goals for what is tallied, or for what the question names ("my coffee budget" over a cortado).
  const things = new Set([...attributes.map((a) => thing(TALLIED.exec(a)![2]!)), ...thingsNamed(input.question)]);
  const goalRowids: number[] = [];
  for (const [attribute, ids] of PROGRESS.test(input.question) ? index.tallies : []) {
    const g = GOAL.exec(attribute);
    if (g && things.has(thing(g[1]!))) goalRowids.push(...[...ids].filter(counts));
  }
  const when = (m: Memory) => m.validFrom ?? m.recordedAt ?? "";
  const day = (m: Memory) => when(m).slice(0, 10) || "undated";
  const read = store.memoriesByRowid([...rowids, ...goalRowids]);
  const inTimeOrder = (ids: number[]) =>
    ids
      .map((rowid) => {
        const { rowid: _r, ...m } = read.get(rowid)!;
        return m;
      })
      .sort((a, b) => (when(a) < when(b) ? -1 : when(a) > when(b) ? 1 : a.seq - b.seq));
  const entries = inTimeOrder(rowids);
  const goals = inTimeOrder(goalRowids);
  const listed = entries.slice(-MAX_LISTED);
  const amounts = entries.map((m) => amountOf(m.value));
  const units = new Set(amounts.map((a) => a?.unit));
  const lines = [
    `[tally] ${attributes.join(", ")}: ${entriesOf(entries.length)}`,
    // Every version, so that each week can be held against the goal of its time.
    ...goals.map(
      (m) =>
        `Goal stated ${day(m)}: ${m.value} (session ${m.sessionId}; ${validAt(m, input.at) ? "standing" : `replaced on ${(m.retiredAt ?? m.validTo ?? "").slice(0, 10)}`})`,
    ),
    ...(listed.length < entries.length ? [`(${entries.length - listed.length} earlier entries not listed)`] : []),
    ...listed.map((m) => `- ${day(m)}: ${m.value} (session ${m.sessionId})`),
  ];
  if (units.size === 1 && amounts[0]) {
    const unit = amounts[0].unit;
    const total = amounts.reduce((s, a) => s + a!.value, 0);
    lines.push(`Sum of the ${entriesOf(entries.length)}: ${formatSum(unit, total)}`);
    lines.push(...subtotals(entries.map(day), amounts as Amount[], unit, periodOf(input.question)));
  }
  // Every entry is a source, listed or not: the sum counts them all.
  return viewHit(lines, [...goals, ...listed], [...goals, ...entries], entries.at(-1)!.recordedAt);
}
