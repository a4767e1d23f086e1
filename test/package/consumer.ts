/**
 * A consumer's own memory system, written against the installed package only
 * (`membench`, `membench/ledger`, `membench/systems`). test/package/tarball.test.ts
 * compiles it in a fresh project with `tsc --strict --module nodenext` and runs
 * it: it must compile with no error and pass the conformance kit.
 */
import { type Dataset, loadDataset } from "membench";
import { Ledger } from "membench/ledger";
import {
  type IngestBatch,
  type MemorySystem,
  type Retrieved,
  runConformance,
  type SearchQuery,
  type SystemCaps,
  type SystemContext,
  type SystemDefinition,
} from "membench/systems";

interface Entry {
  sessionId: string;
  turnId: string;
  text: string;
  time?: string;
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

/** Turns ranked by the words they share with the question. */
export class KeywordSystem implements MemorySystem {
  readonly id = "keyword";
  readonly caps: SystemCaps = {
    granularity: "turn",
    ranked: true,
    provenance: true,
    readback: false,
    nativeAnswer: false,
  };
  private readonly spaces = new Map<string, Entry[]>();

  async open(ns: string): Promise<void> {
    this.spaces.set(ns, this.spaces.get(ns) ?? []);
  }

  async ingest(ns: string, batch: IngestBatch): Promise<void> {
    const space = this.spaces.get(ns) ?? [];
    for (const turn of batch.turns) {
      const time = turn.time ?? batch.time;
      space.push({ sessionId: batch.sessionId, turnId: turn.id, text: turn.content, ...(time ? { time } : {}) });
    }
    this.spaces.set(ns, space);
  }

  async search(ns: string, q: SearchQuery): Promise<Retrieved[]> {
    const query = words(q.text);
    return (this.spaces.get(ns) ?? [])
      .map((entry) => ({ entry, score: [...words(entry.text)].filter((w) => query.has(w)).length }))
      .sort((a, b) => b.score - a.score)
      .slice(0, q.k)
      .map(({ entry, score }) => ({
        text: entry.text,
        score,
        sessionIds: [entry.sessionId],
        turnIds: [entry.turnId],
        kind: "turn" as const,
        ...(entry.time ? { time: entry.time } : {}),
      }));
  }

  async close(ns: string): Promise<void> {
    this.spaces.delete(ns);
  }
}

export const keyword: SystemDefinition = {
  id: "keyword",
  summary: "turns ranked by the words they share with the question",
  create: () => new KeywordSystem(),
};

const context: SystemContext = {
  embedder: () => Promise.reject(new Error("the keyword system embeds nothing")),
  modelStatus: { configured: false, detail: "no model" },
  cacheDir: ".membench/cache",
};
const report = await runConformance(() => keyword.create({}, context));
const dataset: Dataset = await loadDataset("locomo", process.argv[2] ?? "");
const ledger = new Ledger({ path: ":memory:" });
ledger.close();
console.log(JSON.stringify({ passed: report.passed, checks: report.checks.length, episodes: dataset.episodes.length }));
