/**
 * Numbers RealMem reports (spec/realmem.md §7), printed beside ours and marked
 * as reported. Table 3 is session-level retrieval; its R@k behaves like our
 * recall_all@k and its NDCG like ndcg_realmem@k (spec §6.1).
 */
export interface ReportedRow {
  system: string;
  metrics: Record<string, number>;
}

export const realmemRetrievalTable: { source: string; rows: ReportedRow[] } = {
  source: "RealMem Table 3 (session level)",
  rows: [
    {
      system: "Graph Mem",
      metrics: {
        "recall_all@10": 0.6344,
        "recall_all@20": 0.7017,
        "ndcg_realmem@10": 0.5654,
        "ndcg_realmem@20": 0.5826,
      },
    },
    {
      system: "Mem0",
      metrics: {
        "recall_all@10": 0.6055,
        "recall_all@20": 0.6515,
        "ndcg_realmem@10": 0.5251,
        "ndcg_realmem@20": 0.5398,
      },
    },
    {
      system: "A-mem",
      metrics: { "recall_all@10": 0.576, "recall_all@20": 0.7235, "ndcg_realmem@10": 0.5211, "ndcg_realmem@20": 0.556 },
    },
  ],
};
