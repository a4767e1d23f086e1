/**
 * The conformance kit: behavioural checks any MemorySystem (built in, or a user's
 * adapter) can run against a small synthetic history. It checks what a benchmark
 * run silently relies on: namespaces do not leak into each other, nothing comes
 * back before it was ingested, results have the promised shape, provenance ids are
 * real, readback returns exactly the sessions asked for, and a closed namespace is gone.
 *
 * Each check gets a fresh system from the factory and its own namespaces, closed
 * afterwards. History is fed at the system's own granularity, and `flush` (when the
 * system has it) is awaited after every ingest.
 */
import { CONFORMANCE_HISTORY, type ConformanceSession } from "./conformance-history.ts";
import type { IngestBatch, MemorySystem, Retrieved } from "./types.ts";

export { CONFORMANCE_HISTORY, type ConformanceSession } from "./conformance-history.ts";

export interface ConformanceCheck {
  name: string;
  passed: boolean;
  /** What was verified, or every problem found. */
  detail: string;
  /** The check does not apply (a capability the system does not claim); counts as passed. */
  skipped?: boolean;
}

export interface ConformanceReport {
  /** The id of the system under test, when the factory produced one. */
  systemId?: string;
  passed: boolean;
  checks: ConformanceCheck[];
}

export interface ConformanceOptions {
  /** Prefix of every namespace the kit opens (default "membench-conformance"). */
  namespacePrefix?: string;
  /** Time allowed for one check, in ms (default 120000). */
  timeoutMs?: number;
}

export type ConformanceFactory = () => MemorySystem | Promise<MemorySystem>;

export const CONFORMANCE_CHECKS = [
  "contract",
  "namespace-isolation",
  "no-future-leakage",
  "result-shape",
  "provenance-ids",
  "readback",
  "close-reopen-empty",
] as const;
export type ConformanceCheckName = (typeof CONFORMANCE_CHECKS)[number];

/** Later than every session of the history, so a time-aware system sees all of it. */
const QUESTION_TIME = "2024-06-01T00:00:00Z";
const SEARCH_K = 10;
const SHAPE_KS = [1, 2, 3, 10];
const GRANULARITIES = new Set(["turn", "session", "batch", "chunk"]);
const KINDS = new Set(["turn", "session", "memory", "chunk"]);
/** Problems listed in full before the rest are only counted. */
const MAX_LISTED = 8;

const HISTORY = CONFORMANCE_HISTORY;
const QUERIES = HISTORY.map((s) => s.query);

type Outcome = { problems: string[]; summary: string } | { skip: string };

interface CheckContext {
  system: MemorySystem;
  /** A namespace name for this check; opened and closed by the check, closed again at the end. */
  ns(suffix: string): string;
}

// ---------------------------------------------------------------- helpers

/** The batches a session is fed in at the system's granularity. */
function batchesOf(session: ConformanceSession, granularity: string): IngestBatch[] {
  const b = session.batch;
  const size = granularity === "turn" ? 1 : granularity === "batch" ? 2 : b.turns.length;
  const out: IngestBatch[] = [];
  for (let i = 0; i < b.turns.length; i += size) out.push({ ...b, turns: b.turns.slice(i, i + size) });
  return out;
}

async function feed(system: MemorySystem, ns: string, sessions: readonly ConformanceSession[]): Promise<void> {
  for (const session of sessions) {
    for (const batch of batchesOf(session, system.caps.granularity)) {
      await system.ingest(ns, batch);
      if (typeof system.flush === "function") await system.flush(ns);
    }
  }
}

async function search(system: MemorySystem, ns: string, text: string, k = SEARCH_K): Promise<Retrieved[]> {
  const result = await system.search(ns, { text, k, time: QUESTION_TIME });
  // A non-array is reported by result-shape; elsewhere it simply yields nothing to inspect.
  return Array.isArray(result) ? result.filter((r) => r !== null && typeof r === "object") : [];
}

async function readback(system: MemorySystem, ns: string, sessionIds: string[]): Promise<Retrieved[]> {
  const result = await system.readback!(ns, sessionIds);
  if (!Array.isArray(result)) throw new Error(`readback returned ${typeof result}, not an array`);
  return result.filter((r) => r !== null && typeof r === "object");
}

function sessionIdsOf(sessions: readonly ConformanceSession[]): string[] {
  return sessions.map((s) => s.batch.sessionId);
}

function turnIdsOf(sessions: readonly ConformanceSession[]): string[] {
  return sessions.flatMap((s) => s.batch.turns.map((t) => t.id));
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function snippet(item: Retrieved): string {
  const text = typeof item.text === "string" ? item.text.replace(/\s+/g, " ") : String(item.text);
  return text.length > 60 ? `"${text.slice(0, 57)}..."` : `"${text}"`;
}

/** Why `item` shows data from `sessions`, if it does: their marker words or their ids. */
function tracesOf(item: Retrieved, sessions: readonly ConformanceSession[]): string[] {
  const text = typeof item.text === "string" ? item.text.toLowerCase() : "";
  const sessionIds = new Set(strings(item.sessionIds));
  const turnIds = new Set(strings(item.turnIds));
  const found: string[] = [];
  for (const s of sessions) {
    const id = s.batch.sessionId;
    if (text.includes(s.marker)) found.push(`text of ${id}`);
    if (sessionIds.has(id)) found.push(`sessionId ${id}`);
    const turns = s.batch.turns.filter((t) => turnIds.has(t.id)).map((t) => t.id);
    if (turns.length) found.push(`turnIds ${turns.join(", ")}`);
  }
  return found;
}

function summarise(problems: string[]): string {
  const listed = problems.slice(0, MAX_LISTED).join("; ");
  return problems.length > MAX_LISTED ? `${listed}; and ${problems.length - MAX_LISTED} more` : listed;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------- checks

async function checkContract({ system }: CheckContext): Promise<Outcome> {
  const problems: string[] = [];
  if (typeof system.id !== "string" || system.id === "") problems.push("id must be a non-empty string");
  const caps = system.caps as Partial<MemorySystem["caps"]> | undefined;
  if (!caps || typeof caps !== "object") {
    problems.push("caps is missing");
  } else {
    if (!GRANULARITIES.has(String(caps.granularity))) {
      problems.push(`caps.granularity is ${JSON.stringify(caps.granularity)}, expected turn, session, batch or chunk`);
    }
    for (const flag of ["ranked", "provenance", "readback", "nativeAnswer"] as const) {
      if (typeof caps[flag] !== "boolean") problems.push(`caps.${flag} must be a boolean`);
    }
  }
  for (const method of ["open", "ingest", "search", "close"] as const) {
    if (typeof system[method] !== "function") problems.push(`${method}() is missing`);
  }
  if (system.flush !== undefined && typeof system.flush !== "function") problems.push("flush is not a function");
  if (caps?.readback && typeof system.readback !== "function")
    problems.push("caps.readback is true but readback() is missing");
  if (caps?.nativeAnswer && typeof system.answer !== "function") {
    problems.push("caps.nativeAnswer is true but answer() is missing");
  }
  return { problems, summary: "id, caps and methods are well formed" };
}

async function checkIsolation({ system, ns }: CheckContext): Promise<Outcome> {
  const a = ns("a");
  const b = ns("b");
  await system.open(a);
  await system.open(b);
  const inA = HISTORY.slice(0, 2);
  const inB = HISTORY.slice(2);
  await feed(system, a, inA);
  await feed(system, b, inB);
  const problems: string[] = [];
  let searches = 0;
  for (const [space, foreign] of [
    [a, inB],
    [b, inA],
  ] as const) {
    for (const query of QUERIES) {
      searches++;
      for (const item of await search(system, space, query)) {
        const traces = tracesOf(item, foreign);
        if (traces.length)
          problems.push(`search in ${space} for "${query}" returned ${traces.join(", ")} ${snippet(item)}`);
      }
    }
    if (system.caps.readback) {
      const items = await readback(system, space, sessionIdsOf(foreign));
      if (items.length)
        problems.push(`readback in ${space} of the other namespace's sessions returned ${items.length} items`);
    }
  }
  return {
    problems,
    summary: `${searches} searches across 2 namespaces never returned the other namespace's data`,
  };
}

async function checkFutureLeakage({ system, ns }: CheckContext): Promise<Outcome> {
  const space = ns("timeline");
  await system.open(space);
  const problems: string[] = [];
  for (let ingested = 0; ingested <= HISTORY.length; ingested++) {
    if (ingested > 0) await feed(system, space, [HISTORY[ingested - 1]!]);
    const future = HISTORY.slice(ingested);
    if (future.length === 0) break;
    for (const query of QUERIES) {
      for (const item of await search(system, space, query)) {
        const traces = tracesOf(item, future);
        if (traces.length) {
          problems.push(`after ${ingested} of ${HISTORY.length} sessions, "${query}" returned ${traces.join(", ")}`);
        }
      }
    }
    if (system.caps.readback) {
      const items = await readback(system, space, sessionIdsOf(future));
      if (items.length)
        problems.push(`after ${ingested} sessions, readback of sessions not yet ingested returned items`);
    }
  }
  return { problems, summary: "searched after each of 4 sessions: only sessions already ingested came back" };
}

function shapeProblems(result: unknown, k: number, ranked: boolean): string[] {
  if (!Array.isArray(result)) return [`returned ${result === null ? "null" : typeof result}, not an array`];
  const problems: string[] = [];
  if (result.length > k) problems.push(`returned ${result.length} items for k = ${k}`);
  result.forEach((item: Retrieved, i) => {
    const at = `item ${i}`;
    if (item === null || typeof item !== "object") {
      problems.push(`${at} is not an object`);
      return;
    }
    if (typeof item.text !== "string") problems.push(`${at}: text is not a string`);
    if (typeof item.score !== "number" || !Number.isFinite(item.score)) {
      problems.push(`${at}: score ${String(item.score)} is not a finite number`);
    }
    if (item.time !== undefined && typeof item.time !== "string") problems.push(`${at}: time is not a string`);
    for (const field of ["sessionIds", "turnIds"] as const) {
      const value = item[field];
      if (value !== undefined && (!Array.isArray(value) || value.some((v) => typeof v !== "string"))) {
        problems.push(`${at}: ${field} is not an array of strings`);
      }
    }
    if (item.kind !== undefined && !KINDS.has(item.kind)) problems.push(`${at}: unknown kind "${String(item.kind)}"`);
    const prev = result[i - 1] as Retrieved | undefined;
    if (ranked && prev && typeof prev.score === "number" && item.score > prev.score) {
      problems.push(`${at}: score ${item.score} is above the previous ${prev.score} although caps.ranked`);
    }
  });
  return problems;
}

async function checkShape({ system, ns }: CheckContext): Promise<Outcome> {
  const space = ns("shape");
  await system.open(space);
  await feed(system, space, HISTORY);
  const problems: string[] = [];
  for (const k of SHAPE_KS) {
    for (const query of QUERIES) {
      const result: unknown = await system.search(space, { text: query, k, time: QUESTION_TIME });
      for (const p of shapeProblems(result, k, system.caps.ranked)) problems.push(`k = ${k}, "${query}": ${p}`);
    }
  }
  return {
    problems,
    summary: `${SHAPE_KS.length * QUERIES.length} searches returned at most k well-formed items${system.caps.ranked ? ", scores non-increasing" : ""}`,
  };
}

async function checkProvenance({ system, ns }: CheckContext): Promise<Outcome> {
  if (!system.caps.provenance) return { skip: "caps.provenance is false" };
  const space = ns("provenance");
  await system.open(space);
  await feed(system, space, HISTORY);
  const knownSessions = new Set(sessionIdsOf(HISTORY));
  const knownTurns = new Set(turnIdsOf(HISTORY));
  const problems: string[] = [];
  let items = 0;
  for (const query of QUERIES) {
    for (const item of await search(system, space, query)) {
      items++;
      const sessionIds = strings(item.sessionIds);
      const turnIds = strings(item.turnIds);
      if (sessionIds.length === 0 && turnIds.length === 0) {
        problems.push(`"${query}" returned an item with no sessionIds or turnIds ${snippet(item)}`);
      }
      for (const id of sessionIds) if (!knownSessions.has(id)) problems.push(`"${query}": unknown sessionId ${id}`);
      for (const id of turnIds) if (!knownTurns.has(id)) problems.push(`"${query}": unknown turnId ${id}`);
    }
  }
  const summary = items
    ? `${items} items, each naming only sessions and turns ingested into its namespace`
    : "no search returned any item, so there were no ids to verify";
  return { problems, summary };
}

async function checkReadback({ system, ns }: CheckContext): Promise<Outcome> {
  if (!system.caps.readback) return { skip: "caps.readback is false" };
  const space = ns("readback");
  await system.open(space);
  await feed(system, space, HISTORY);
  const problems: string[] = [];
  if ((await readback(system, space, [])).length) problems.push("readback of no sessions returned items");
  if ((await readback(system, space, ["conf-never-ingested"])).length) {
    problems.push("readback of a session never ingested returned items");
  }
  const texts = new Map<string, string[]>();
  for (const session of HISTORY) {
    const id = session.batch.sessionId;
    const others = HISTORY.filter((s) => s !== session);
    const items = await readback(system, space, [id]);
    texts.set(
      id,
      items.map((i) => String(i.text)),
    );
    for (const item of items) {
      const traces = tracesOf(item, others);
      if (traces.length) problems.push(`readback of ${id} returned ${traces.join(", ")} ${snippet(item)}`);
    }
  }
  // What a search shows from a session must have been written, so readback of it cannot be empty.
  for (const query of QUERIES) {
    for (const item of await search(system, space, query)) {
      for (const id of strings(item.sessionIds)) {
        if (texts.get(id)?.length === 0) problems.push(`search returned data of ${id} but readback of ${id} is empty`);
      }
    }
  }
  const pair = sessionIdsOf(HISTORY.slice(1, 3));
  const together = (await readback(system, space, pair)).map((i) => String(i.text)).sort();
  const apart = pair.flatMap((id) => texts.get(id) ?? []).sort();
  if (JSON.stringify(together) !== JSON.stringify(apart)) {
    problems.push(`readback of ${pair.join(" and ")} together differs from reading each back alone`);
  }
  return {
    problems: [...new Set(problems)],
    summary: "readback returned only the sessions asked for, consistently, and nothing for unknown sessions",
  };
}

async function checkCloseReopen({ system, ns }: CheckContext): Promise<Outcome> {
  const space = ns("reopen");
  await system.open(space);
  await feed(system, space, HISTORY);
  await system.close(space);
  await system.open(space);
  const problems: string[] = [];
  for (const query of QUERIES) {
    const items = await search(system, space, query);
    if (items.length)
      problems.push(`after close and open, "${query}" returned ${items.length} items ${snippet(items[0]!)}`);
  }
  if (system.caps.readback && (await readback(system, space, sessionIdsOf(HISTORY))).length) {
    problems.push("after close and open, readback returned items");
  }
  // The re-opened namespace must be usable, not just empty.
  await feed(system, space, HISTORY.slice(0, 1));
  await search(system, space, HISTORY[0]!.query);
  return { problems, summary: "a closed and re-opened namespace was empty and usable" };
}

const CHECKS: Record<ConformanceCheckName, (ctx: CheckContext) => Promise<Outcome>> = {
  contract: checkContract,
  "namespace-isolation": checkIsolation,
  "no-future-leakage": checkFutureLeakage,
  "result-shape": checkShape,
  "provenance-ids": checkProvenance,
  readback: checkReadback,
  "close-reopen-empty": checkCloseReopen,
};

// ---------------------------------------------------------------- runner

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

async function runCheck(
  name: ConformanceCheckName,
  factory: ConformanceFactory,
  options: Required<ConformanceOptions>,
  onSystem: (system: MemorySystem) => void,
): Promise<ConformanceCheck> {
  let system: MemorySystem;
  try {
    system = await factory();
  } catch (error) {
    return { name, passed: false, detail: `the factory failed: ${errorText(error)}` };
  }
  onSystem(system);
  const opened = new Set<string>();
  const ctx: CheckContext = {
    system,
    ns: (suffix) => {
      const space = `${options.namespacePrefix}-${suffix}`;
      opened.add(space);
      return space;
    },
  };
  try {
    const outcome = await withTimeout(CHECKS[name](ctx), options.timeoutMs, `check ${name}`);
    if ("skip" in outcome) return { name, passed: true, skipped: true, detail: `skipped: ${outcome.skip}` };
    if (outcome.problems.length === 0) return { name, passed: true, detail: outcome.summary };
    return { name, passed: false, detail: summarise(outcome.problems) };
  } catch (error) {
    return { name, passed: false, detail: `threw ${errorText(error)}` };
  } finally {
    for (const space of opened) {
      try {
        await system.close(space);
      } catch {
        // Closing is cleanup; a failure here must not hide the check's own result.
      }
    }
  }
}

/** Runs every check, each on a fresh system from `factory`; never throws. */
export async function runConformance(
  factory: ConformanceFactory,
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const settings: Required<ConformanceOptions> = {
    namespacePrefix: options.namespacePrefix ?? "membench-conformance",
    timeoutMs: options.timeoutMs ?? 120_000,
  };
  let systemId: string | undefined;
  const checks: ConformanceCheck[] = [];
  for (const name of CONFORMANCE_CHECKS) {
    checks.push(
      await runCheck(name, factory, settings, (s) => {
        systemId ??= typeof s?.id === "string" ? s.id : undefined;
      }),
    );
  }
  return { ...(systemId !== undefined ? { systemId } : {}), passed: checks.every((c) => c.passed), checks };
}

/** For node:test: resolves with the report when every check passes, else throws listing each failure. */
export async function assertConformance(
  factory: ConformanceFactory,
  options?: ConformanceOptions,
): Promise<ConformanceReport> {
  const report = await runConformance(factory, options);
  if (!report.passed) {
    const failed = report.checks.filter((c) => !c.passed);
    const lines = failed.map((c) => `  - ${c.name}: ${c.detail}`);
    throw new Error(
      `system ${report.systemId ?? "(unknown)"} failed ${failed.length} conformance check(s):\n${lines.join("\n")}`,
    );
  }
  return report;
}
