/**
 * How exact the ledger's tallies are on Memora's aggregation questions, with no
 * model: the release computes each answer (a total, the week with the most, a
 * goal, the tasks that remain) from the facts it planted, so the tally (or the
 * open-task list) the ledger returns first can be checked against it. A wrong total is a write-side miss (an
 * entry the offline rules did not read, or one read twice), which answer
 * accuracy would otherwise hide behind the reader.
 *
 * `npx tsx bench/ledger-tallies.ts [memora data dir…]`; bench/ledger.ts prints
 * it after each Memora case.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadDataset } from "../src/benchmarks/index.ts";
import { sessionIdOf } from "../src/benchmarks/memora/evidence.ts";
import { Ledger } from "../src/ledger/ledger.ts";
import { entriesOf } from "../src/ledger/tally.ts";

/** What the release says the answer is, and what the ledger's first result says. */
export interface TallyCheck {
  questionId: string;
  question: string;
  expected: string;
  found: string;
  exact: boolean;
}

type Evidence = Record<string, unknown>;
/** What is checked: a total, the top week, the standing goal, or how many weeks met their goal. */
type Kind = "sum" | "max" | "goal" | "met" | "tasks";

interface Reading {
  value: number;
  n?: number;
  /** For open tasks: the sessions that told them. */
  sessions?: string[];
}

/** The number a template's answer turns on, from the release's `memory_evidence`. */
function expectedOf(template: string, ev: Evidence): (Reading & { kind: Kind }) | undefined {
  const num = (x: unknown) => (typeof x === "number" ? x : undefined);
  const len = (x: unknown) => (Array.isArray(x) ? x.length : undefined);
  if (template === "activity_todos" && Array.isArray(ev.remaining_tasks)) {
    const sessions = (ev.remaining_tasks as Array<{ session_id?: unknown }>).map((t) =>
      sessionIdOf(Number(t.session_id)),
    );
    return { kind: "tasks", value: sessions.length, sessions };
  }
  if (template === "activity_food_total" && num(ev.total_amount) !== undefined)
    return { kind: "sum", value: num(ev.total_amount)!, n: num(ev.expense_count) };
  if (template === "activity_food_coffee" && num(ev.category_total) !== undefined)
    return { kind: "sum", value: num(ev.category_total)!, n: len(ev.expense_items) };
  if (template === "activity_steps_total" && num(ev.total_steps) !== undefined)
    return { kind: "sum", value: num(ev.total_steps)!, n: num(ev.step_count) };
  if (template.startsWith("comparative_") && template.includes("_max_") && num(ev.max_value) !== undefined)
    return { kind: "max", value: num(ev.max_value)!, n: num(ev.max_period) };
  if (template.startsWith("comparative_goal_met_") && num(ev.met_count) !== undefined)
    return { kind: "met", value: num(ev.met_count)!, n: num(ev.total_periods) };
  if (template.startsWith("goal_") && num(ev.goal_value) !== undefined)
    return { kind: "goal", value: num(ev.goal_value)! };
  return undefined;
}

const amount = (text: string) => Number(text.replace(/[$,]/g, ""));

/** The same number read off the tally's text, as the reader gets it. */
function foundOf(kind: Kind, text: string): Reading | undefined {
  if (kind === "tasks") {
    if (!text.startsWith("[open tasks]")) return undefined;
    const sessions = [...text.matchAll(/^- .*\(session ([^)]+)\)$/gm)].map((m) => m[1]!);
    return { value: sessions.length, sessions };
  }
  if (kind === "sum") {
    const m = /^Sum of the (\d+) entr(?:y|ies): \$?([\d,.]+)/m.exec(text);
    return m ? { value: amount(m[2]!), n: Number(m[1]) } : undefined;
  }
  if (kind === "met") {
    // What a careful reader concludes: each week against the goal stated by its first day.
    const goals = [...text.matchAll(/^Goal stated (\d{4}-\d{2}-\d{2}): .*?\$([\d,]+(?:\.\d+)?)/gm)].map((g) => ({
      day: g[1]!,
      value: amount(g[2]!),
    }));
    const weeks = [...text.matchAll(/^ {2}\d{4}-\d{2} week \d \((\d{4}-\d{2}-\d{2}) to [^)]*\): \$?([\d,.]+)/gm)];
    if (!goals.length || !weeks.length) return undefined;
    let met = 0;
    for (const w of weeks) {
      const goal = goals.filter((g) => g.day <= w[1]!).at(-1);
      if (goal && amount(w[2]!) <= goal.value) met++;
    }
    return { value: met, n: weeks.length };
  }
  if (kind === "max") {
    const weeks = [...text.matchAll(/^ {2}\d{4}-\d{2} week (\d) \([^)]*\): \$?([\d,.]+)/gm)].map((w) => ({
      n: Number(w[1]),
      value: amount(w[2]!),
    }));
    return weeks.length ? weeks.reduce((a, b) => (b.value > a.value ? b : a)) : undefined;
  }
  const standing = /^Goal stated [^:]*: .*?\$?([\d,]+(?:\.\d+)?)\b.*; standing\)$/m.exec(text);
  return standing ? { value: amount(standing[1]!) } : undefined;
}

function show(kind: Kind, x: Reading | undefined, tallied = true, expected?: Reading): string {
  const missing = { sum: "sum", max: "weekly sums", goal: "goal", met: "goals or weekly sums", tasks: "tasks" }[kind];
  if (!x) return tallied ? `no ${missing} in the tally` : "no tally";
  const v = Number.isInteger(x.value) ? x.value.toLocaleString("en-US") : x.value.toFixed(2);
  if (kind === "sum") return `${v} over ${x.n === undefined ? "? entries" : entriesOf(x.n)}`;
  if (kind === "max") return `week ${x.n ?? "?"}: ${v}`;
  if (kind === "met") return `${v} of ${x.n ?? "?"} weeks met`;
  if (kind === "tasks") {
    const told = `${v} open task${x.value === 1 ? "" : "s"}`;
    if (!expected?.sessions) return `${told} (${(x.sessions ?? []).join(", ")})`;
    const hits = (x.sessions ?? []).filter((id) => expected.sessions!.includes(id)).length;
    return `${told}, ${hits} of the ${expected.sessions.length} released`;
  }
  return `goal ${v}`;
}

/** Every aggregation question of a Memora data directory, checked against the ledger's tally. */
export async function checkTallies(dir: string): Promise<TallyCheck[]> {
  const dataset = await loadDataset("memora", dir);
  const evidence = new Map<string, Evidence>();
  for (const persona of readdirSync(dir)) {
    const file = join(dir, persona, `evaluation_questions_${persona}.json`);
    if (!existsSync(file)) continue;
    const root = JSON.parse(readFileSync(file, "utf8")) as {
      questions?: Record<string, Array<Record<string, unknown>>>;
    };
    for (const list of Object.values(root.questions ?? {}))
      for (const q of list)
        if (typeof q.question_id === "string" && q.memory_evidence && typeof q.memory_evidence === "object")
          evidence.set(q.question_id, q.memory_evidence as Evidence);
  }
  const out: TallyCheck[] = [];
  for (const episode of dataset.episodes) {
    const ledger = new Ledger();
    try {
      for (const s of episode.sessions) {
        await ledger.add("m", {
          sessionId: s.id,
          sessionIndex: s.index,
          ...(s.time ? { time: s.time } : {}),
          turns: s.turns.map((t) => ({ id: t.id, role: t.role, content: t.content })),
        });
      }
      for (const probe of episode.probes) {
        const template = String(probe.labels.template ?? "");
        const ev = evidence.get(probe.id);
        const expected = ev ? expectedOf(template, ev) : undefined;
        if (!expected) continue;
        const [first] = await ledger.search("m", probe.question, { k: 10, ...(probe.time ? { at: probe.time } : {}) });
        const tallied = !!first && /^\[(?:tally|open tasks)\]/.test(first.text);
        const found = tallied ? foundOf(expected.kind, first!.text) : undefined;
        const exact =
          !!found &&
          Math.abs(found.value - expected.value) < 0.005 &&
          (expected.kind === "sum" || expected.kind === "goal" || found.n === expected.n) &&
          (expected.kind !== "tasks" || expected.sessions!.every((id) => found.sessions?.includes(id)));
        out.push({
          questionId: probe.id,
          question: probe.question,
          expected: show(expected.kind, expected),
          found: show(expected.kind, found, tallied, expected),
          exact,
        });
      }
    } finally {
      ledger.close();
    }
  }
  return out;
}

export function printTallyChecks(label: string, rows: readonly TallyCheck[]): void {
  if (!rows.length) {
    console.log(`#### ${label}: no aggregation question with a computed answer\n`);
    return;
  }
  console.log(
    `#### ${label}: tallies against the release's computed answers (${rows.filter((r) => r.exact).length} of ${rows.length} exact)\n`,
  );
  console.log("| question | release | ledger tally | exact |");
  console.log("|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.question} | ${r.expected} | ${r.found} | ${r.exact ? "yes" : "no"} |`);
  console.log("");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const dir of process.argv.slice(2)) printTallyChecks(dir, await checkTallies(dir));
}
