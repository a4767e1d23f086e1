/**
 * The MemoryAgentBench source registry: one record per `metadata.source`
 * (sub-dataset) of the Hugging Face release, with the constants the runner and
 * the scorer need. Values come from the paper (arXiv 2507.05257: dataset
 * table, chunk sizes, Table 3's aggregation), the released `configs/data_conf`
 * (metrics, `context_max_length`, `max_test_samples`) and the Hugging Face
 * release at revision 7ea0669 (rows and questions per source).
 */

export const SPLITS = [
  "Accurate_Retrieval",
  "Test_Time_Learning",
  "Long_Range_Understanding",
  "Conflict_Resolution",
] as const;
export type MabSplit = (typeof SPLITS)[number];

/** The paper's abbreviations. The code and the HF split call SF "Conflict Resolution". */
export type Competency = "AR" | "TTL" | "LRU" | "SF";

export const COMPETENCY_OF_SPLIT: Record<MabSplit, Competency> = {
  Accurate_Retrieval: "AR",
  Test_Time_Learning: "TTL",
  Long_Range_Understanding: "LRU",
  Conflict_Resolution: "SF",
};

export const COMPETENCY_NAMES: Record<Competency, string> = {
  AR: "Accurate Retrieval",
  TTL: "Test-Time Learning",
  LRU: "Long-Range Understanding",
  SF: "Selective Forgetting",
};

/**
 * The metric a probe is scored with (the released `post_process`). `subem` and `em` are the
 * code's `substring_exact_match` / `exact_match`; the two judges are the
 * LongMemEval yes/no judge and the HELMET summary F1 judge.
 */
export type MabMetric = "subem" | "em" | "recall@5" | "llm_judge_lme" | "llm_judge_sum_f1";

/** Template family: picks the memorize and query templates (the released `utils/templates.py`). */
export type MabFamily =
  | "ruler_qa"
  | "longmemeval"
  | "eventqa"
  | "in_context_learning"
  | "recsys_redial"
  | "infbench_sum"
  | "detective_qa"
  | "factconsolidation";

export interface MabSource {
  /** `metadata.source` in the release; the official `sub_dataset` config key. */
  id: string;
  split: MabSplit;
  competency: Competency;
  family: MabFamily;
  /** Dataset name in the paper (Table 2). */
  paperName: string;
  /** Column of the paper's Table 3 this source scores into (the five ICL sets average into MCC). */
  column: string;
  /** Part of the paper's main results (Table 3); false for the context-length ablation variants. */
  main: boolean;
  /** Context chunk size in o200k tokens for the main results (Table 15). */
  chunkSize: number;
  /** Chunk size when run with `--chunk_size_ablation`, where the paper used a different one. */
  ablationChunkSize?: number;
  /** Max output tokens: the paper's Table 14 value and the repo config's value (they differ twice). */
  generationMaxLength: { paper: number; config: number };
  /** Context budget of the long-context agent (repo data config). */
  contextMaxLength: number;
  /** Rows the official loader takes (first N rows with this source, no shuffling). */
  maxTestSamples: number;
  /** Rows (contexts) and questions with this source in the release. */
  rows: number;
  questions: number;
  metric: MabMetric;
  /** The judge model for the judged metrics. */
  judge?: string;
}

type Row = Omit<MabSource, "competency" | "generationMaxLength"> & { gen: number | [number, number] };

const ROWS: Row[] = [
  // Accurate Retrieval
  {
    id: "ruler_qa1_197K",
    split: "Accurate_Retrieval",
    family: "ruler_qa",
    paperName: "SH-Doc QA",
    column: "SH-QA",
    main: true,
    chunkSize: 512,
    gen: 50,
    contextMaxLength: 220000,
    maxTestSamples: 100,
    rows: 1,
    questions: 100,
    metric: "subem",
  },
  {
    id: "ruler_qa2_421K",
    split: "Accurate_Retrieval",
    family: "ruler_qa",
    paperName: "MH-Doc QA",
    column: "MH-QA",
    main: true,
    chunkSize: 512,
    gen: 50,
    contextMaxLength: 524288,
    maxTestSamples: 100,
    rows: 1,
    questions: 100,
    metric: "subem",
  },
  {
    id: "longmemeval_s*",
    split: "Accurate_Retrieval",
    family: "longmemeval",
    paperName: "LongMemEval (S*)",
    column: "LME(S*)",
    main: true,
    chunkSize: 512,
    gen: [100, 50],
    contextMaxLength: 400000,
    maxTestSamples: 5,
    rows: 5,
    questions: 300,
    metric: "llm_judge_lme",
    judge: "gpt-4o",
  },
  {
    id: "eventqa_full",
    split: "Accurate_Retrieval",
    family: "eventqa",
    paperName: "EventQA",
    column: "EventQA",
    main: true,
    chunkSize: 4096,
    gen: 40,
    contextMaxLength: 800000,
    maxTestSamples: 5,
    rows: 5,
    questions: 500,
    metric: "subem",
  },
  {
    id: "eventqa_65536",
    split: "Accurate_Retrieval",
    family: "eventqa",
    paperName: "EventQA 51K",
    column: "EventQA",
    main: false,
    chunkSize: 4096,
    gen: 40,
    contextMaxLength: 65536,
    maxTestSamples: 5,
    rows: 5,
    questions: 500,
    metric: "subem",
  },
  {
    id: "eventqa_131072",
    split: "Accurate_Retrieval",
    family: "eventqa",
    paperName: "EventQA 108K",
    column: "EventQA",
    main: false,
    chunkSize: 4096,
    gen: 40,
    contextMaxLength: 131072,
    maxTestSamples: 5,
    rows: 5,
    questions: 500,
    metric: "subem",
  },
  // Test-Time Learning
  ...(
    [
      ["icl_banking77_5900shot_balance", "BANKING77"],
      ["icl_clinic150_7050shot_balance", "CLINC150"],
      ["icl_nlu_8296shot_balance", "NLU"],
      ["icl_trec_coarse_6600shot_balance", "TREC Coarse"],
      ["icl_trec_fine_6400shot_balance", "TREC Fine"],
    ] as const
  ).map(
    ([id, paperName]): Row => ({
      id,
      split: "Test_Time_Learning",
      family: "in_context_learning",
      paperName,
      column: "MCC",
      main: true,
      chunkSize: 4096,
      gen: 20,
      contextMaxLength: 131072,
      maxTestSamples: 100,
      rows: 1,
      questions: 100,
      metric: "em",
    }),
  ),
  {
    id: "recsys_redial_full",
    split: "Test_Time_Learning",
    family: "recsys_redial",
    paperName: "Movie Recommendation (ReDial)",
    column: "Recom",
    main: true,
    chunkSize: 4096,
    gen: 300,
    contextMaxLength: 1480000,
    maxTestSamples: 1,
    rows: 1,
    questions: 200,
    metric: "recall@5",
  },
  // Long-Range Understanding
  {
    id: "infbench_sum_eng_shots2",
    split: "Long_Range_Understanding",
    family: "infbench_sum",
    paperName: "∞Bench-Sum",
    column: "Summ",
    main: true,
    chunkSize: 4096,
    gen: 1200,
    contextMaxLength: 1200000,
    maxTestSamples: 100,
    rows: 100,
    questions: 100,
    metric: "llm_judge_sum_f1",
    judge: "gpt-4o-2024-05-13",
  },
  {
    id: "detective_qa",
    split: "Long_Range_Understanding",
    family: "detective_qa",
    paperName: "Detective QA",
    column: "DetQA",
    main: true,
    chunkSize: 4096,
    gen: [500, 2000],
    contextMaxLength: 200000,
    maxTestSamples: 10,
    rows: 10,
    questions: 71,
    metric: "em",
  },
  // Selective Forgetting (split Conflict_Resolution)
  ...(["sh", "mh"] as const).flatMap((hop): Row[] => {
    const column = hop === "sh" ? "FC-SH" : "FC-MH";
    const paperName = `FactConsolidation-${hop.toUpperCase()}`;
    const base = {
      split: "Conflict_Resolution",
      family: "factconsolidation",
      column,
      gen: 10,
      maxTestSamples: 1,
      rows: 1,
      questions: 100,
      metric: "subem",
    } as const;
    return [
      {
        ...base,
        id: `factconsolidation_${hop}_262k`,
        paperName,
        main: true,
        chunkSize: 512,
        contextMaxLength: 300000,
      },
      // The short variants default to 4096-token chunks; the paper ran them at 512 via the ablation flag.
      ...(
        [
          ["6k", 6000],
          ["32k", 32768],
          ["64k", 65536],
        ] as const
      ).map(
        ([len, contextMaxLength]): Row => ({
          ...base,
          id: `factconsolidation_${hop}_${len}`,
          paperName: `${paperName} ${len.toUpperCase()}`,
          main: false,
          chunkSize: 4096,
          ablationChunkSize: 512,
          contextMaxLength,
        }),
      ),
    ];
  }),
];

export const MAB_SOURCES: readonly MabSource[] = ROWS.map(({ gen, ...row }) => ({
  ...row,
  competency: COMPETENCY_OF_SPLIT[row.split],
  generationMaxLength: typeof gen === "number" ? { paper: gen, config: gen } : { paper: gen[0], config: gen[1] },
}));

const BY_ID = new Map(MAB_SOURCES.map((s) => [s.id, s]));

/** The registry record of a `metadata.source` value (exact match, as the official loader does). */
export function mabSource(id: string): MabSource | undefined {
  return BY_ID.get(id);
}

/** The split a release file belongs to, from its official name (`<Split>-00000-of-00001.parquet`). */
export function splitOfFileName(name: string): MabSplit | undefined {
  const m = /^([A-Za-z_]+?)(?:-\d+-of-\d+)?\.parquet$/.exec(name);
  const split = m?.[1];
  return SPLITS.find((s) => s === split);
}

/** How per-dataset scores roll up into the paper's Table 3 (arXiv 2507.05257): unweighted means. */
export const AGGREGATION = {
  MCC: [
    "icl_banking77_5900shot_balance",
    "icl_clinic150_7050shot_balance",
    "icl_nlu_8296shot_balance",
    "icl_trec_coarse_6600shot_balance",
    "icl_trec_fine_6400shot_balance",
  ],
  AR: ["ruler_qa1_197K", "ruler_qa2_421K", "longmemeval_s*", "eventqa_full"],
  TTL: ["MCC", "recsys_redial_full"],
  LRU: ["infbench_sum_eng_shots2", "detective_qa"],
  SF: ["factconsolidation_sh_262k", "factconsolidation_mh_262k"],
  Overall: ["AR", "TTL", "LRU", "SF"],
} as const;

/** Run defaults of the paper (arXiv 2507.05257 §4.1, App. F.3) and its released configs. */
export const MAB_DEFAULTS = {
  backbone: "gpt-4o-mini",
  topK: 10,
  temperature: 0.7,
  /** Mem0, Cognee, Zep and MIRIX use 4096-token chunks on every dataset. */
  memoryAgentChunkSize: 4096,
  mem0TopK: 100,
  memoragTopK: 3,
  /** Chunk sizes of the chunk-size ablation (Table 8). */
  chunkSizeAblation: [512, 1024, 2048, 4096],
  /** Top-k values of the top-k ablation (Table 9). */
  topKAblation: [2, 5, 10],
  /** Tokenizer the chunker counts with (gpt-4o-mini). */
  tokenizer: "o200k_base",
} as const;
