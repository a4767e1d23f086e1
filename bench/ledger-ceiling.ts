/**
 * How far a perfect writer would take the ledger on SubtleMemory: the release
 * ships, for every evidence session, the hidden fact it was written around
 * (`bench_instances.json`: `facts[i]` for `session_ids[i]`) and the relation of
 * each fact set. An oracle extractor writes that fact as a memory of its
 * session (beside what the offline rules read), and an oracle proposer names
 * the true relation. Retrieval is unchanged. The rows bound what an LLM
 * extractor and proposer could add:
 *
 * - `offline`: the rules only (the bench's own figure);
 * - `facts`: each hidden fact as its own memory, under a key of its own (what
 *   a good extractor writes when it does not see the other sessions);
 * - `facts, keyed`: the facts of one set under one key, linked with their true
 *   relation (complementary facts `complement` each other, which search does
 *   not pull in as siblings by default);
 * - `facts, keyed, complements pulled`: the same with the retrieval option
 *   `pullComplements`, so complementary siblings come back together too.
 *
 * recall_any@5 (some evidence session in the top 5) bounds recall_all@5 from
 * above whatever the siblings do. Replayed as the runner does (`replayUnit`).
 *
 *   npx tsx bench/ledger-ceiling.ts [subtlememory data dir]
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadDataset } from "../src/benchmarks/index.ts";
import { createEmbedder } from "../src/embed/create.ts";
import { extractTurns } from "../src/ledger/extract/offline.ts";
import type { Extractor } from "../src/ledger/extract/types.ts";
import { type RelationProposer, ruleProposer } from "../src/ledger/resolve.ts";
import { resolveModelSettings } from "../src/llm/create.ts";
import { protocolFor } from "../src/run/protocols.ts";
import type { ProbeRecord } from "../src/run/record.ts";
import { replayUnit } from "../src/run/replay.ts";
import { type ResultRow, summarise } from "../src/run/summary.ts";
import { LedgerSystem } from "../src/systems/ledger.ts";
import { fmt, SHARED } from "./ledger.ts";

interface PlantedFact {
  fact: string;
  setId: string;
  relation: string;
}

/** Session id → the hidden fact it was written around, from every persona's `bench_instances.json`. */
export function plantedFacts(dir: string): Map<string, PlantedFact> {
  const out = new Map<string, PlantedFact>();
  for (const persona of readdirSync(dir)) {
    const file = join(dir, persona, "bench_instances.json");
    if (!existsSync(file)) continue;
    const instances = JSON.parse(readFileSync(file, "utf8")) as Array<{
      case_id: string;
      relation_type: string;
      facts?: string[];
      session_ids?: string[];
    }>;
    for (const x of instances) {
      const facts = x.facts ?? [];
      // Sets with fewer facts than sessions: the sessions past the last fact get none.
      (x.session_ids ?? []).forEach((sessionId, i) => {
        const fact = facts[i];
        if (fact) out.set(sessionId, { fact, setId: x.case_id, relation: x.relation_type });
      });
    }
  }
  return out;
}

type Variant = "offline" | "facts" | "keyed" | "pulled";

export function oracleExtractor(planted: ReadonlyMap<string, PlantedFact>, variant: Variant): Extractor {
  return {
    id: `oracle-${variant}`,
    async extract(input) {
      const drafts = extractTurns(input);
      const p = planted.get(input.sessionId);
      const turn = input.turns.find((t) => t.role === "user") ?? input.turns[0];
      if (p && turn && variant !== "offline") {
        drafts.push({
          subject: "user",
          kind: "preference",
          attribute: variant === "facts" ? `fact:${input.sessionId}` : `set:${p.setId}`,
          value: p.fact,
          text: p.fact,
          turnIds: [turn.id],
        });
      }
      return drafts;
    },
  };
}

/** The true relation of two facts of one set; the rules for everything else. */
export function oracleProposer(planted: ReadonlyMap<string, PlantedFact>): RelationProposer {
  return {
    id: "oracle",
    propose(existing, incoming) {
      if (!existing.attribute.startsWith("set:")) return ruleProposer.propose(existing, incoming);
      const relation = planted.get(incoming.sessionId)?.relation;
      return relation === "contradictory" ? "contradicts" : relation === "nuanced" ? "conditional" : "complements";
    },
  };
}

const COLUMNS: Array<[string, (row: ResultRow) => number | undefined]> = [
  ["recall_all@5", (r) => r.metrics["recall_all@5"]],
  ["nuanced", (r) => r.byLabel.relation_type?.nuanced?.["recall_all@5"]],
  ["complementary", (r) => r.byLabel.relation_type?.complementary?.["recall_all@5"]],
  ["contradictory", (r) => r.byLabel.relation_type?.contradictory?.["recall_all@5"]],
  ["recall@5", (r) => r.metrics["recall@5"]],
  ["recall_any@5", (r) => r.metrics["recall_any@5"]],
];

async function main(): Promise<void> {
  const dir = process.argv[2] ?? join(SHARED, "subtlememory");
  if (!existsSync(dir)) {
    console.log(`${dir} is absent: the ceiling needs the release's bench_instances.json, skipped`);
    return;
  }
  const planted = plantedFacts(dir);
  const s = resolveModelSettings({});
  const embedder = await createEmbedder(process.env.MEMBENCH_EMBEDDER ?? "use-lite", { cacheDir: s.cacheDir });
  const dataset = await loadDataset("subtlememory", dir);
  const protocol = protocolFor(dataset.benchmark)();
  const episodes = dataset.episodes.map((e) => protocol.prepare(e));
  console.log(`\n## SubtleMemory with a perfect writer (${dir}; ${planted.size} sessions with a planted fact)\n`);
  console.log(`| writer | ${COLUMNS.map(([label]) => label).join(" | ")} |`);
  console.log(`|---|${COLUMNS.map(() => "---:").join("|")}|`);
  const variants: Array<[string, Variant]> = [
    ["offline rules", "offline"],
    ["facts", "facts"],
    ["facts, keyed", "keyed"],
    ["facts, keyed, complements pulled", "pulled"],
  ];
  for (const [label, variant] of variants) {
    const system = new LedgerSystem({
      embedder,
      ledger: {
        extractor: oracleExtractor(planted, variant),
        proposer: oracleProposer(planted),
        retrieval: { pullComplements: variant === "pulled" },
      },
    });
    const records: ProbeRecord[] = [];
    for (const episode of episodes) {
      const unitId = `ledger:${episode.id}`;
      const r = await replayUnit({ unitId, systemId: "ledger", system, episode, protocol, settings: ["default"] });
      records.push(...r.records);
    }
    system.ledger.close();
    const [row] = summarise({ benchmark: "subtlememory", data: dir }, records, [], ["ledger"], ["default"]).results;
    console.log(`| ${label} | ${COLUMNS.map(([, read]) => fmt(row ? read(row) : undefined)).join(" | ")} |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
