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
 * The same for RealMem, whose release keeps each session's extracted memory
 * points (`extracted_memory`, the gold memory base the queries cite): written
 * as memories under their own key, or keyed by project and attribute name and
 * resolved by the rules.
 *
 * And a perfect *query*: the `perfect query` rows give the ledger a query
 * rewriter (query-rewrite.ts) that returns what the probe is really after, the
 * probe's hidden facts (SubtleMemory) or the texts of its gold memories
 * (RealMem), each as one rewrite searched beside the question. No model can
 * know these; the rows bound what query rewriting can add to this retrieval.
 *
 *   npx tsx bench/ledger-ceiling.ts [subtlememory] [realmem]
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadDataset, protocolFor } from "../src/benchmarks/index.ts";
import type { Episode } from "../src/core/model.ts";
import { createEmbedder } from "../src/embed/create.ts";
import type { Embedder } from "../src/embed/types.ts";
import { extractTurns } from "../src/ledger/extract/offline.ts";
import type { Extractor } from "../src/ledger/extract/types.ts";
import type { QueryRewriter } from "../src/ledger/query-rewrite.ts";
import { type RelationProposer, ruleProposer } from "../src/ledger/resolve.ts";
import { resolveModelSettings } from "../src/llm/create.ts";
import type { ResultRow } from "../src/run/summary.ts";
import { LedgerSystem } from "../src/systems/ledger.ts";
import { fmt, SHARED } from "./ledger.ts";
import { replayLedger } from "./ledger-replay.ts";

interface PlantedFact {
  fact: string;
  /** The key the facts of one target share: a SubtleMemory variant set, a RealMem project attribute. */
  key: string;
  /** The set's relation, where the release names it (SubtleMemory); the rules decide otherwise. */
  relation?: string;
}

type Planted = Map<string, PlantedFact[]>;

function plant(out: Planted, sessionId: string, fact: PlantedFact): void {
  const list = out.get(sessionId);
  if (list) list.push(fact);
  else out.set(sessionId, [fact]);
}

/**
 * SubtleMemory: session id → the hidden fact it was written around, from the
 * loaded probes (the loader keeps each set's `facts`, `case_id` and relation).
 */
export function plantedFacts(episodes: readonly Episode[]): Planted {
  const out: Planted = new Map();
  for (const probe of episodes.flatMap((e) => e.probes)) {
    const facts = Array.isArray(probe.meta?.facts) ? (probe.meta.facts as string[]) : [];
    const relation = String(probe.labels.relation_type ?? "");
    // Sets with fewer facts than sessions: the sessions past the last fact get none. A
    // session in several sets keeps the last one's fact.
    probe.gold.evidenceSessionIds.forEach((sessionId: string, i: number) => {
      const fact = facts[i];
      if (fact) out.set(sessionId, [{ fact, key: `set:${String(probe.meta?.caseId)}`, relation }]);
    });
  }
  return out;
}

/**
 * RealMem: session id → the memory points the release extracted from it (the
 * loader keeps each session's `extracted_memory` as `meta.memories`: the gold
 * memory base queries cite), keyed by project and the bracketed attribute name
 * ("【Learning Path/Syllabus】 …").
 */
export function realmemPoints(episodes: readonly Episode[]): Planted {
  const out: Planted = new Map();
  for (const session of episodes.flatMap((e) => e.sessions)) {
    const points = (session.meta?.memories ?? []) as Array<{ id?: string; type: string; content: string }>;
    for (const point of points) {
      if (!point.content) continue;
      const project = (point.id ?? "").split(/-(?:DM|SM)-|:/)[0] ?? "";
      const attribute = /^【([^】]+)】/.exec(point.content)?.[1] ?? (point.type === "Schedule" ? "schedule" : point.id);
      plant(out, session.id, { fact: point.content, key: `point:${project}:${attribute}` });
    }
  }
  return out;
}

/** Question text → what the probe is after: its hidden facts (SubtleMemory) or gold memory texts (RealMem). */
export function hiddenTargets(episodes: readonly Episode[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const probe of episodes.flatMap((e) => e.probes)) {
    const facts = Array.isArray(probe.meta?.facts) ? (probe.meta.facts as string[]) : [];
    const targets = facts.length ? facts : probe.gold.evidenceMemories;
    if (targets.length) out.set(probe.question, targets);
  }
  return out;
}

/** A rewriter that knows the answer's sources: each hidden target is one rewrite. */
export function oracleRewriter(targets: ReadonlyMap<string, string[]>): QueryRewriter {
  return { id: "oracle", rewrite: async (query) => targets.get(query) ?? [] };
}

type Variant = "offline" | "facts" | "keyed" | "pulled";

export function oracleExtractor(planted: ReadonlyMap<string, PlantedFact[]>, variant: Variant): Extractor {
  return {
    id: `oracle-${variant}`,
    async extract(input) {
      const drafts = extractTurns(input);
      const turn = input.turns.find((t) => t.role === "user") ?? input.turns[0];
      if (!turn || variant === "offline") return drafts;
      (planted.get(input.sessionId) ?? []).forEach((p, i) => {
        drafts.push({
          subject: "user",
          kind: "preference",
          attribute: variant === "facts" ? `fact:${input.sessionId}:${i}` : p.key,
          value: p.fact,
          text: p.fact,
          turnIds: [turn.id],
        });
      });
      return drafts;
    },
  };
}

/** The true relation of two facts of one set where the release names it; the rules for everything else. */
export function oracleProposer(planted: ReadonlyMap<string, PlantedFact[]>): RelationProposer {
  return {
    id: "oracle",
    propose(existing, incoming) {
      const relation = planted.get(incoming.sessionId)?.find((p) => p.key === incoming.attribute)?.relation;
      if (!relation) return ruleProposer.propose(existing, incoming);
      const named =
        relation === "contradictory" ? "contradicts" : relation === "nuanced" ? "conditional" : "complements";
      return existing.map(() => named);
    },
  };
}

type Columns = Array<[string, (row: ResultRow) => number | undefined]>;

const SUBTLE_COLUMNS: Columns = [
  ["recall_all@5", (r) => r.metrics["recall_all@5"]],
  ["nuanced", (r) => r.byLabel.relation_type?.nuanced?.["recall_all@5"]],
  ["complementary", (r) => r.byLabel.relation_type?.complementary?.["recall_all@5"]],
  ["contradictory", (r) => r.byLabel.relation_type?.contradictory?.["recall_all@5"]],
  ["recall@5", (r) => r.metrics["recall@5"]],
  ["recall_any@5", (r) => r.metrics["recall_any@5"]],
];

const REALMEM_COLUMNS: Columns = [
  ["NDCG_realmem@10", (r) => r.metrics["ndcg_realmem@10"]],
  ["recall_all@10", (r) => r.metrics["recall_all@10"]],
  ["recall_all@20", (r) => r.metrics["recall_all@20"]],
  ["recall_any@10", (r) => r.metrics["recall_any@10"]],
];

const CEILINGS = {
  subtlememory: { shared: "subtlememory", read: plantedFacts, columns: SUBTLE_COLUMNS, what: "planted fact" },
  realmem: { shared: "realmem", read: realmemPoints, columns: REALMEM_COLUMNS, what: "memory point" },
} as const;

async function ceiling(bench: keyof typeof CEILINGS, dir: string, embedder: Embedder): Promise<void> {
  const c = CEILINGS[bench];
  const dataset = await loadDataset(bench, dir);
  const planted = c.read(dataset.episodes);
  const targets = hiddenTargets(dataset.episodes);
  const facts = [...planted.values()].reduce((n, list) => n + list.length, 0);
  const protocol = protocolFor(dataset.benchmark)();
  const episodes = dataset.episodes.map((e) => protocol.prepare(e));
  console.log(
    `\n## ${bench} with a perfect writer or query (${dir}; ${facts} ${c.what}s in ${planted.size} sessions; ${targets.size} probes with hidden targets)\n`,
  );
  console.log(`| writer | ${c.columns.map(([label]) => label).join(" | ")} |`);
  console.log(`|---|${c.columns.map(() => "---:").join("|")}|`);
  const variants: Array<[string, Variant, boolean]> = [
    ["offline rules", "offline", false],
    ["facts", "facts", false],
    ["facts, keyed", "keyed", false],
    ["facts, keyed, complements pulled", "pulled", false],
    ["offline rules, perfect query", "offline", true],
    ["facts, keyed, complements pulled, perfect query", "pulled", true],
  ];
  for (const [label, variant, perfectQuery] of variants) {
    const system = new LedgerSystem({
      embedder,
      ledger: {
        extractor: oracleExtractor(planted, variant),
        proposer: oracleProposer(planted),
        retrieval: { pullComplements: variant === "pulled" },
        ...(perfectQuery ? { rewriter: oracleRewriter(targets) } : {}),
      },
    });
    const row = await replayLedger(system, episodes, protocol, { benchmark: bench, data: dir });
    console.log(`| ${label} | ${c.columns.map(([, read]) => fmt(row ? read(row) : undefined)).join(" | ")} |`);
  }
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  for (const name of names) {
    if (!(name in CEILINGS)) throw new Error(`unknown benchmark "${name}"; known: ${Object.keys(CEILINGS).join(", ")}`);
  }
  const s = resolveModelSettings({});
  const embedder = await createEmbedder(process.env.MEMBENCH_EMBEDDER ?? "use-lite", { cacheDir: s.cacheDir });
  for (const bench of (names.length ? names : Object.keys(CEILINGS)) as Array<keyof typeof CEILINGS>) {
    const dir = join(SHARED, CEILINGS[bench].shared);
    if (!existsSync(dir)) console.log(`${dir} is absent: the ${bench} ceiling needs the release's own facts, skipped`);
    else await ceiling(bench, dir, embedder);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
