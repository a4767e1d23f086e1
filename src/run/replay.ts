/**
 * Replays one episode into one memory system (a work unit): sessions in
 * canonical order, each probe fired at its position in the timeline, every
 * requested setting assembled from what has been ingested by then.
 */

import type { Protocol } from "../benchmarks/shared/protocol.ts";
import { SystemError } from "../core/errors.ts";
import type { Episode, Probe, Session } from "../core/model.ts";
import type { ProbeRecord, RetrievedRecord, Setting } from "../core/record.ts";
import type { ChatModel } from "../llm/types.ts";
import { type EvidenceUnit, type ProvenanceItem, rankUnits, retrievalMetrics } from "../score/retrieval.ts";
import type { IngestTurn, MemorySystem, Retrieved } from "../systems/types.ts";

export interface ReplayOptions {
  unitId: string;
  systemId: string;
  system: MemorySystem;
  episode: Episode;
  protocol: Protocol;
  settings: readonly Setting[];
  /** The answerer; without one the answer stage is skipped and says so. */
  answerer?: ChatModel;
  /**
   * Takes each record the answer model is to answer as soon as its context is
   * frozen, marked `answerPending`; the replay goes on without waiting, and the
   * caller asks it (`askAnswerModel`). Without this the replay asks the answerer
   * itself, all of a probe's answers before the timeline moves on.
   */
  deferAnswer?: (record: ProbeRecord, probe: Probe) => void;
  /** Called after each probe with the records it produced. */
  onProbe?: (records: ProbeRecord[]) => void;
  /** Called before the first ingest call (0 turns) and after each one, with the turns ingested of the episode's total. */
  onIngest?: (done: number, total: number) => void;
}

export interface ReplayResult {
  records: ProbeRecord[];
  ingestMs: number[];
}

const NO_MODEL = "no model configured";

/** The longest the replay runs before it lets the event loop turn. */
const SLICE_MS = 5;

/**
 * Lets the event loop turn once `SLICE_MS` went by since it last did. A system
 * working in memory answers with promises already settled, so a replay would
 * otherwise run from one microtask to the next for a whole unit and no socket
 * would be read meanwhile: the answers it handed over would wait for it (a
 * LoCoMo conversation's 199 probes fired without a pause kept the model idle).
 */
function timeSlicer(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < SLICE_MS) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}

function toIngestTurns(session: Session): IngestTurn[] {
  return session.turns.map((t) => ({ id: t.id, role: t.role, speaker: t.speaker, content: t.content, time: t.time }));
}

/** Retrieved items as a probe record stores them, ranked in the order given. */
export function retrievedRecords(items: readonly Retrieved[]): RetrievedRecord[] {
  return items.map((item, i) => ({
    rank: i + 1,
    text: item.text,
    score: item.score,
    time: item.time,
    sessionIds: item.sessionIds,
    turnIds: item.turnIds,
    kind: item.kind,
  }));
}

/** The gold units a probe's retrieval is measured against, and the unit they are in. */
export function goldUnits(probe: Probe, unit: EvidenceUnit): { unit: EvidenceUnit; gold: Set<string> } {
  if (unit === "turn" && probe.gold.evidenceTurnIds.length) return { unit, gold: new Set(probe.gold.evidenceTurnIds) };
  return { unit: "session", gold: new Set(probe.gold.evidenceSessionIds) };
}

/**
 * The provenance retrieval metrics of one probe's ranked items under the
 * benchmark's protocol; undefined when the probe has no gold evidence. Runs
 * and `score --retrievals` (a system run elsewhere) both measure with it.
 */
export function probeRetrievalMetrics(
  probe: Probe,
  items: readonly ProvenanceItem[],
  protocol: Pick<Protocol, "evidenceUnit" | "ks" | "supportKs">,
): Record<string, number> | undefined {
  const { unit, gold } = goldUnits(probe, protocol.evidenceUnit);
  if (!gold.size) return undefined;
  return retrievalMetrics(rankUnits(items, unit), gold, {
    ks: protocol.ks,
    supportKs: protocol.supportKs,
    stale: probe.gold.staleSessionIds.length ? new Set(probe.gold.staleSessionIds) : undefined,
  });
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

/**
 * Runs one answer attempt on `record`: a failure is recorded as such and scored
 * as a failure later, never dropped. `answerMs` is what `fn` returns (the model
 * call's own time, without its wait for a slot of the model's concurrency), else
 * the attempt's wall time.
 */
async function attempt(record: ProbeRecord, fn: () => Promise<number | undefined>): Promise<void> {
  const start = performance.now();
  delete record.answerError;
  let ms: number | undefined;
  try {
    ms = await fn();
  } catch (error) {
    record.answerError = (error as Error).message ?? String(error);
  }
  delete record.answerPending;
  record.timings.answerMs = ms ?? performance.now() - start;
}

/**
 * Asks the answer model about `record`'s probe with the context stored in the
 * record, and writes the answer (or the failure) into it. The context is what
 * the probe saw when it fired, so a failed answer of a finished unit is asked
 * again from its record without replaying the unit.
 */
export async function askAnswerModel(
  answerer: ChatModel,
  protocol: Protocol,
  probe: Probe,
  record: ProbeRecord,
): Promise<void> {
  record.answeredBy = "model";
  await attempt(record, async () => {
    const context = { text: record.context.text, tokens: record.context.tokens, used: record.context.used };
    const result = await answerer.chat({
      role: "answerer",
      messages: protocol.answerMessages(probe, context),
      temperature: 0,
    });
    record.answer = result.text;
    record.usage = { ...result.usage, cached: result.cached };
    return result.latencyMs;
  });
}

export async function replayUnit(options: ReplayOptions): Promise<ReplayResult> {
  const { system, episode, protocol, unitId, systemId } = options;
  const ns = unitId;
  const sessions = [...episode.sessions].sort((a, b) => a.index - b.index);
  const before = new Map<string, Probe[]>();
  const after = new Map<string, Probe[]>();
  const atEnd: Probe[] = [];
  for (const probe of episode.probes) {
    const p = probe.position;
    if (p.at === "end") atEnd.push(probe);
    else {
      const map = p.at === "before" ? before : after;
      map.set(p.sessionId, [...(map.get(p.sessionId) ?? []), probe]);
    }
  }
  const records: ProbeRecord[] = [];
  const ingestMs: number[] = [];
  const pause = timeSlicer();
  const ingested: Session[] = [];
  const byId = new Map<string, Session>();

  const call = async <T>(operation: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof SystemError) throw error;
      throw new SystemError((error as Error).message ?? String(error), systemId, operation, { cause: error });
    }
  };

  // A probe's answers are asked before the timeline moves on only when they need
  // the system's memory as it is now (the system answers itself), or when no one
  // takes the model's answers (`deferAnswer`): the context is frozen in the record.
  const fire = async (probes: readonly Probe[]) => {
    if (!probes.length) return;
    const flush = await timed(() => call("flush", async () => system.flush?.(ns)));
    const answers: Promise<void>[] = [];
    for (const probe of probes) {
      const produced: ProbeRecord[] = [];
      for (const setting of options.settings) {
        const record = await assemble(probe, setting, flush.ms);
        produced.push(record);
        if (record.status === "done") {
          const pending = answer(probe, setting, record);
          if (pending) answers.push(pending);
        }
      }
      records.push(...produced);
      options.onProbe?.(produced);
      await pause();
    }
    await Promise.all(answers);
  };

  const assemble = async (probe: Probe, setting: Setting, flushMs: number): Promise<ProbeRecord> => {
    const base = {
      unitId,
      system: systemId,
      episodeId: episode.id,
      probeId: probe.id,
      setting,
      question: probe.question,
      time: probe.time,
      labels: probe.labels,
    };
    const skipped = (skipReason: string): ProbeRecord => ({
      ...base,
      status: "skipped",
      skipReason,
      retrieved: [],
      context: { text: "", tokens: 0, used: 0 },
      timings: { flushMs, searchMs: 0 },
    });
    let items: Retrieved[];
    let searchMs = 0;
    // An unranked system (full-context) returns the whole history within its own
    // token budget: it is not cut to the retrieval depth, and all of it is context.
    const ranked = system.caps.ranked;
    if (setting === "default") {
      const k = ranked ? protocol.depth : Number.MAX_SAFE_INTEGER;
      const r = await timed(() =>
        call("search", () => system.search(ns, { text: probe.question, k, time: probe.time })),
      );
      items = r.value.slice(0, k);
      searchMs = r.ms;
    } else if (setting === "oracle") {
      items = protocol.oracle(probe, ingested);
      if (!items.length) return skipped("no gold evidence ingested by the time the probe fires");
    } else {
      if (!system.caps.readback || !system.readback) return skipped("the system has no readback");
      const have = new Set(ingested.map((s) => s.id));
      const ids = probe.gold.evidenceSessionIds.filter((id) => have.has(id));
      if (!ids.length) return skipped("no gold evidence session ingested by the time the probe fires");
      const r = await timed(() => call("readback", () => system.readback!(ns, ids)));
      items = r.value;
      searchMs = r.ms;
    }
    const context = protocol.buildContext(items, { maxItems: ranked ? undefined : items.length, sessions: byId });
    const record: ProbeRecord = {
      ...base,
      status: "done",
      retrieved: retrievedRecords(items),
      context: { text: context.text, tokens: context.tokens, used: context.used },
      timings: { flushMs, searchMs },
    };
    if (setting === "default") {
      const retrieval = probeRetrievalMetrics(probe, items, protocol);
      if (retrieval) record.retrieval = retrieval;
    }
    return record;
  };

  const answer = (probe: Probe, setting: Setting, record: ProbeRecord): Promise<void> | undefined => {
    const native = setting === "default" && system.caps.nativeAnswer && system.answer;
    if (native) {
      record.answeredBy = "system";
      return attempt(record, async () => {
        record.answer = await system.answer!(ns, { id: probe.id, question: probe.question, time: probe.time });
        return undefined;
      });
    }
    if (!options.answerer) {
      record.answerSkipped = NO_MODEL;
      return undefined;
    }
    if (!options.deferAnswer) return askAnswerModel(options.answerer, protocol, probe, record);
    record.answeredBy = "model";
    record.answerPending = true;
    options.deferAnswer(record, probe);
    return undefined;
  };

  await call("open", () => system.open(ns));
  const sessionTurns = new Map(sessions.map((s) => [s.id, toIngestTurns(s)]));
  const totalTurns = [...sessionTurns.values()].reduce((n, t) => n + t.length, 0);
  let turnsIngested = 0;
  options.onIngest?.(0, totalTurns);
  try {
    for (const session of sessions) {
      await fire(before.get(session.id) ?? []);
      const turns = sessionTurns.get(session.id)!;
      const batches = system.caps.granularity === "turn" ? turns.map((t) => [t]) : [turns];
      for (const batch of batches) {
        const r = await timed(() =>
          call("ingest", () =>
            system.ingest(ns, { sessionId: session.id, sessionIndex: session.index, time: session.time, turns: batch }),
          ),
        );
        ingestMs.push(r.ms);
        turnsIngested += batch.length;
        options.onIngest?.(turnsIngested, totalTurns);
        await pause();
      }
      ingested.push(session);
      byId.set(session.id, session);
      await fire(after.get(session.id) ?? []);
    }
    await fire(atEnd);
  } finally {
    await call("close", () => system.close(ns));
  }
  return { records, ingestMs };
}
