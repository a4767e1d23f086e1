/**
 * The retrieval columns `run` and `score` print for each benchmark: the names its
 * paper reports, so no table shows another benchmark's metric (RealMem's
 * `ndcg_realmem` appears in RealMem's table only). Every benchmark computes all
 * provenance metrics (summary.json has them); this is what the terminal shows,
 * and the report leaves out the metrics `foreignMetric` names.
 */
export const RETRIEVAL_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  // R@k and NDCG@k of the paper, computed as its evaluation code does.
  realmem: ["recall_all@10", "recall_all@20", "ndcg_realmem@10", "ndcg_realmem@20"],
  // Recall@k (any and all) and NDCG@k of session retrieval, k = 5 and 10.
  longmemeval: ["recall_any@5", "recall_all@5", "ndcg@5", "recall_any@10", "recall_all@10", "ndcg@10"],
  // Recall of the evidence dialogs among the top k.
  locomo: ["recall@5", "recall@10", "recall@20", "recall_all@10"],
  // Support Evidence Hit and Support Rank Score at K = 2, 3, 5.
  memconflict: ["seh_prov@2", "seh_prov@3", "seh_prov@5", "srs_prov@2", "srs_prov@3", "srs_prov@5"],
  memora: ["recall_all@10", "recall_all@20", "ndcg@10", "stale@10", "stale@20"],
  subtlememory: ["recall_all@10", "recall_all@20", "recall_any@10", "ndcg@10", "ndcg@20"],
  memoryagentbench: ["recall_all@5", "recall_all@10", "ndcg@5", "ndcg@10"],
};

/** Metrics no benchmark but the named one prints. */
const OWN_METRIC: ReadonlyArray<[RegExp, string]> = [
  [/^ndcg_realmem@/, "realmem"],
  [/^(seh|srs)_prov@/, "memconflict"],
  [/^stale@/, "memora"],
];

/** Whether `metric` is another benchmark's own (RealMem's `ndcg_realmem@k` in a LoCoMo table). */
export function foreignMetric(benchmark: string, metric: string): boolean {
  return OWN_METRIC.some(([re, bench]) => bench !== benchmark && re.test(metric));
}

/** The columns for a benchmark's table, among the metrics its rows have. */
export function retrievalColumns(benchmark: string, metrics: readonly string[]): string[] {
  const have = new Set(metrics);
  const own = (RETRIEVAL_COLUMNS[benchmark] ?? []).filter((m) => have.has(m));
  if (own.length) return own;
  // A benchmark without a list (a unified file scored as none): its own @k metrics, none of another's.
  return metrics.filter((m) => /@/.test(m) && !foreignMetric(benchmark, m)).slice(0, 6);
}
