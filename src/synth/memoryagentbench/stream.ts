/**
 * The chunked-stream builder: any long text with questions becomes one
 * MemoryAgentBench row, injected chunk by chunk before its questions are
 * asked (arXiv 2507.05257 §3.3: "inject once, query multiple times"). The
 * context stays whole in the file, as in the release; membench's protocol
 * chunks it at run time with the source's chunk size (512 tokens for the
 * document-QA sources). Documents are laid out as RULER's QA sets are
 * (App. B.1.2): duplicates removed, shuffled, `Document N:` headers, or kept
 * as one stream in their order.
 *
 * Questions come from a file (`[{"question", "answers" | "answer", "id"?}]`),
 * or are written: by the model (a short answer copied from the text), or by
 * our templates (a sentence of the text with one name or number blanked).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { splitSentences } from "../../benchmarks/memoryagentbench/chunk.ts";
import { ConfigError } from "../../core/errors.ts";
import type { Rng } from "../rng.ts";
import type { Realiser } from "../types.ts";

export const STREAM_SOURCES = ["ruler_qa1_197K", "ruler_qa2_421K"] as const;
export type StreamSource = (typeof STREAM_SOURCES)[number];

export interface StreamKnobs {
  input: string[];
  questionsFile?: string;
  layout: "documents" | "stream";
  shuffle: boolean;
  questions: number;
  questionsPerDocument: number;
}

export interface StreamQuestion {
  question: string;
  answers: string[];
  /** Index of the document the answer was taken from, when we wrote it. */
  document?: number;
  id?: string;
}

const TEXT_FILE = /\.(txt|md|text)$/i;

/** The text files of `paths` (files, or folders searched recursively), sorted, each read once. */
export function readDocuments(paths: string[]): Array<{ path: string; text: string }> {
  if (!paths.length)
    throw new ConfigError(
      "mode=stream needs --knob input=FILE[,FILE…] (text files or folders)",
      "knob input",
      "--knob",
    );
  const files: string[] = [];
  const visit = (p: string) => {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(p);
    } catch (error) {
      throw new ConfigError(`cannot read ${p}: ${(error as Error).message}`, "knob input", "--knob");
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) {
        const child = join(p, name);
        if (statSync(child).isDirectory() || TEXT_FILE.test(name)) visit(child);
      }
    } else files.push(p);
  };
  for (const p of paths) visit(p);
  return files
    .map((path) => ({ path, text: readFileSync(path, "utf8").replace(/\r\n/g, "\n").trim() }))
    .filter((d) => d.text);
}

/** The context of the row and the documents in their final order. */
export function layOut(
  rng: Rng,
  docs: Array<{ text: string }>,
  knobs: StreamKnobs,
): { context: string; order: string[] } {
  // Identical documents once only (RULER's duplicate removal).
  const unique = [...new Set(docs.map((d) => d.text))];
  const order = knobs.shuffle ? rng.shuffle(unique) : unique;
  const context =
    knobs.layout === "documents" ? order.map((t, i) => `Document ${i + 1}:\n${t}`).join("\n\n") : order.join("\n\n");
  return { context, order };
}

const questionFileSchema = z.array(
  z
    .object({
      question: z.string().min(1),
      answers: z.array(z.string().min(1)).min(1).optional(),
      answer: z.string().min(1).optional(),
      id: z.string().min(1).optional(),
    })
    .refine((q) => q.answers || q.answer, "needs answers (a list) or answer"),
);

export function readQuestions(path: string): StreamQuestion[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(
      `cannot read the questions file ${path}: ${(error as Error).message}`,
      "knob questions",
      "--knob",
    );
  }
  const parsed = questionFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${path}: [${issue?.path.join("].")}: ${issue?.message}`, "knob questionsFile", "--knob");
  }
  return parsed.data.map((q) => ({
    question: q.question,
    answers: q.answers ?? [q.answer as string],
    ...(q.id ? { id: q.id } : {}),
  }));
}

/** A name or number inside a sentence, never its first word: a span a reader can recall. */
const SPAN = /(?<=\S\s)(?:\d[\d,.]*\d|\d|[A-Z][a-z]+(?:\s[A-Z][a-z]+){0,3})(?=[\s,.;:!?)]|$)/g;

/** Template questions: a sentence of the document with one span blanked, whose answer is the span. */
function clozeQuestions(
  rng: Rng,
  doc: string,
  context: string,
  n: number,
): Array<{ question: string; answer: string }> {
  const out: Array<{ question: string; answer: string }> = [];
  const sentences = rng.shuffle(splitSentences(doc).filter((s) => s.length >= 30 && s.length <= 300));
  for (const s of sentences) {
    if (out.length >= n) break;
    // The sentence must point at one place of the context, or the blank would be ambiguous.
    if (context.indexOf(s) !== context.lastIndexOf(s)) continue;
    const spans = [...s.matchAll(SPAN)].map((m) => ({ text: m[0], at: m.index ?? 0 }));
    if (!spans.length) continue;
    const span = rng.pick(spans);
    const blanked = `${s.slice(0, span.at)}____${s.slice(span.at + span.text.length)}`;
    out.push({ question: `Fill in the blank, as the documents state it: "${blanked}"`, answer: span.text });
  }
  return out;
}

const writtenSchema = z.object({
  qa: z.array(z.object({ question: z.string().min(1), answer: z.string().min(1) })).min(1),
});

/** Questions for each document, by the realiser: the model from our prompt, templates by blanking a span. */
export async function writeQuestions(
  rng: Rng,
  realiser: Realiser,
  order: string[],
  context: string,
  knobs: StreamKnobs,
  tick: () => void,
): Promise<StreamQuestion[]> {
  const perDoc = await Promise.all(
    order.map(async (doc, i) => {
      const drng = rng.fork(`document/${i}`);
      // The model sees a bounded excerpt; answers must be copied from it.
      const excerpt = doc.length > 6000 ? doc.slice(0, 6000) : doc;
      const reply = await realiser.json({
        prompt: "memoryagentbench/questions",
        vars: { excerpt, count: knobs.questionsPerDocument },
        schema: writtenSchema,
        template: () => ({ qa: clozeQuestions(drng, excerpt, context, knobs.questionsPerDocument) }),
        check: (v) => {
          const missing = v.qa.filter((q) => !excerpt.includes(q.answer)).map((q) => JSON.stringify(q.answer));
          return missing.length ? `answers not copied from the excerpt: ${missing.join(", ")}` : undefined;
        },
        maxTokens: 200 + knobs.questionsPerDocument * 120,
        item: `document ${i + 1}`,
      });
      tick();
      return reply.qa.map((q) => ({ question: q.question, answers: [q.answer], document: i }));
    }),
  );
  // Round-robin over documents, so a cap keeps questions spread over the whole context.
  const out: StreamQuestion[] = [];
  for (let k = 0; out.length < knobs.questions && perDoc.some((q) => q.length > k); k++) {
    for (const qs of perDoc) {
      const q = qs[k];
      if (q && out.length < knobs.questions && !out.some((x) => x.question === q.question)) out.push(q);
    }
  }
  return out;
}
