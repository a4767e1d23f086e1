/**
 * The MemoryAgentBench generator: rows in the Hugging Face release's parquet
 * format (`<Split>-00000-of-00001.parquet`; columns context, questions,
 * answers, metadata) that membench's loader reads.
 * - `mode=factconsolidation` (default): the Selective Forgetting datasets
 *   FC-SH and FC-MH from a list of counterfactual edit pairs (ours by
 *   default), one row each, sharing one numbered-fact context of the chosen
 *   length (`Conflict_Resolution-00000-of-00001.parquet`).
 * - `mode=stream`: any long text with questions as one document-QA row
 *   (`Accurate_Retrieval-00000-of-00001.parquet`), injected chunk by chunk at
 *   run time.
 */
import { z } from "zod";
import { mabSource } from "../../benchmarks/memoryagentbench/sources.ts";
import { ConfigError } from "../../core/errors.ts";
import { jsonText } from "../output.ts";
import type { Generator } from "../types.ts";
import { loadEdits } from "./edits.ts";
import { buildFactConsolidation, FC_LENGTHS, type FcLength, type FcQuestion } from "./facts.ts";
import { type MabRow, mabParquetBytes } from "./parquet.ts";
import { layOut, readDocuments, readQuestions, STREAM_SOURCES, type StreamQuestion, writeQuestions } from "./stream.ts";
import { EVIDENCE_FILE, type EvidenceFile, validateMab } from "./validate.ts";

export const MAB_GENERATOR_VERSION = "1.0.0";

const knobs = z.object({
  mode: z
    .enum(["factconsolidation", "stream"])
    .default("factconsolidation")
    .describe("factconsolidation: FC-SH and FC-MH from edit pairs; stream: a document-QA row from your own text"),
  questions: z
    .int()
    .min(1)
    .default(100)
    .describe("questions per row at most (the paper has 100 per FactConsolidation row)"),
  length: z
    .enum(["6k", "32k", "64k", "262k"])
    .default("262k")
    .describe(
      "factconsolidation: context length; 262k is the paper's main result, the others its length ablation (loader variant all)",
    ),
  edits: z
    .string()
    .optional()
    .describe("factconsolidation: your edit-pair list (JSON, format in docs/synth.md); default: membench's own"),
  syntheticChains: z
    .int()
    .min(0)
    .default(46)
    .describe(
      "factconsolidation: invented mayor→birthplace→river chains added to the list (3 SH and 2 MH questions each)",
    ),
  editShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.7)
    .describe("factconsolidation: chance each invented chain fact has a newer, overriding value"),
  fillerEditShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe("factconsolidation: chance a filler fact comes as an edit pair"),
  input: z.array(z.string()).default([]).describe("stream: text files or folders (.txt/.md), one document per file"),
  questionsFile: z
    .string()
    .optional()
    .describe(
      'stream: questions JSON [{"question", "answers": [..] or "answer", "id"?}]; default: written per document',
    ),
  questionsPerDocument: z
    .int()
    .min(1)
    .default(3)
    .describe("stream: questions written per document when no questionsFile"),
  source: z
    .enum(STREAM_SOURCES)
    .default("ruler_qa1_197K")
    .describe("stream: sub-dataset the row is (its templates, 512-token chunks, SubEM): single- or multi-hop doc QA"),
  layout: z
    .enum(["documents", "stream"])
    .default("documents")
    .describe("stream: 'Document N:' headers (RULER) or one continuous text"),
  shuffle: z.boolean().default(true).describe("stream: shuffle the documents, as RULER's QA sets are"),
});

export type MabKnobs = z.infer<typeof knobs>;

const NULL_METADATA = {
  demo: null,
  keypoints: null,
  previous_events: null,
  question_dates: null,
  question_ids: null,
  question_types: null,
  haystack_sessions: null,
};

function splitFile(source: string): string {
  const known = mabSource(source);
  if (!known) throw new Error(`unknown MemoryAgentBench source ${source}`);
  return `${known.split}-00000-of-00001.parquet`;
}

function row(
  context: string,
  source: string,
  questions: Array<{ question: string; answers: string[]; id?: string }>,
): MabRow {
  return {
    context,
    questions: questions.map((q) => q.question),
    answers: questions.map((q) => q.answers),
    metadata: { source, qa_pair_ids: questions.map((q, i) => q.id ?? `${source}_no${i}`), ...NULL_METADATA },
  };
}

export const memoryagentbenchGenerator: Generator<MabKnobs> = {
  benchmark: "memoryagentbench",
  summary:
    "FactConsolidation (numbered facts, newer wins; SH and MH questions) from counterfactual edit pairs, or a chunked-stream document-QA row from any text with questions; parquet in the release format",
  version: MAB_GENERATOR_VERSION,
  knobs,
  sizeKnob: "questions",
  // The 6k/32k/64k FactConsolidation rows are the length ablation, which the loader reads in variant `all` only.
  loadVariant: "all",
  async generate(k, ctx) {
    if (k.mode === "factconsolidation") {
      const list = loadEdits(k.edits);
      ctx.progress.stage("factconsolidation", 1, "contexts");
      const built = buildFactConsolidation(ctx.rng.fork("factconsolidation"), list, {
        length: k.length as FcLength,
        questions: k.questions,
        syntheticChains: k.syntheticChains,
        editShare: k.editShare,
        fillerEditShare: k.fillerEditShare,
      });
      ctx.progress.tick();
      ctx.log.info(
        `factconsolidation ${k.length}: ${built.facts} numbered facts, ${built.tokens} tokens (target ${FC_LENGTHS[k.length as FcLength]}), ${built.sh.length} SH and ${built.mh.length} MH questions`,
      );
      const file = splitFile(`factconsolidation_sh_${k.length}`);
      const rows = (["sh", "mh"] as const).map((hop) => {
        const source = `factconsolidation_${hop}_${k.length}`;
        const qs: FcQuestion[] = hop === "sh" ? built.sh : built.mh;
        return { source, qs, row: row(built.context, source, qs) };
      });
      ctx.write(file, mabParquetBytes(rows.map((r) => r.row)));
      const evidence: EvidenceFile = {
        format: "membench-synth-mab-evidence/1",
        rows: rows.map((r, i) => ({
          file,
          row: i,
          source: r.source,
          questions: r.qs.map((q, j) => ({ id: `${r.source}_no${j}`, hops: q.hops })),
        })),
      };
      ctx.write(EVIDENCE_FILE, jsonText(evidence, 1));
      return;
    }
    const docs = readDocuments(k.input);
    if (!docs.length) throw new ConfigError("the input files hold no text", "knob input", "--knob");
    const { context, order } = layOut(ctx.rng.fork("layout"), docs, {
      input: k.input,
      layout: k.layout,
      shuffle: k.shuffle,
      questions: k.questions,
      questionsPerDocument: k.questionsPerDocument,
    });
    let questions: StreamQuestion[];
    if (k.questionsFile) {
      questions = readQuestions(k.questionsFile).slice(0, k.questions);
    } else {
      ctx.progress.stage("questions", order.length, "documents");
      questions = await writeQuestions(
        ctx.rng.fork("questions"),
        ctx.realiser,
        order,
        context,
        {
          input: k.input,
          layout: k.layout,
          shuffle: k.shuffle,
          questions: k.questions,
          questionsPerDocument: k.questionsPerDocument,
        },
        () => ctx.progress.tick(),
      );
      ctx.progress.done();
    }
    if (!questions.length) {
      throw new ConfigError(
        "no questions: give --knob questionsFile=FILE, or longer documents with names or numbers",
        "knob questionsFile",
        "--knob",
      );
    }
    const known = mabSource(k.source);
    ctx.log.info(
      `stream ${k.source}: ${order.length} documents, ${questions.length} questions; chunked at ${known?.chunkSize} tokens at run time`,
    );
    const file = splitFile(k.source);
    ctx.write(file, mabParquetBytes([row(context, k.source, questions)]));
    const evidence: EvidenceFile = {
      format: "membench-synth-mab-evidence/1",
      rows: [
        {
          file,
          row: 0,
          source: k.source,
          questions: questions.map((q, i) => ({
            id: q.id ?? `${k.source}_no${i}`,
            ...(q.document !== undefined ? { document: q.document } : {}),
          })),
        },
      ],
    };
    ctx.write(EVIDENCE_FILE, jsonText(evidence, 1));
  },
  validate: validateMab,
};
