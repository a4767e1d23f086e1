/**
 * SubtleMemory scoring (arXiv 2606.05761 §3.1, §4, App. C.1; the released judge
 * Yummytanmo/SubtleMemory@be80b281:evaluation/src/evaluators/llm_judge.py with
 * its prompts in `evaluation/config/prompts.yaml`).
 *
 * - Per question, a binary CORRECT/WRONG judge sees the question, the answer,
 *   the accepted and the known-wrong reference answers, the case, its facts,
 *   the relation labels with relation- and source-specific guidance, and the
 *   persona for user-related questions only (paper App. C.1.3; `llm_judge.py`).
 * - Before any judge call, the reference code's bypass: an answer equal to an
 *   accepted reference once whitespace is collapsed and case folded is CORRECT,
 *   equal to a known-wrong one is WRONG (`llm_judge.py`).
 * - Two exact-match rates beside accuracy, with no judge: `em`, the released
 *   post-processing's `exact_match` (the answer equals `golden_answer`, the
 *   first accepted reference), and `em_any` (it equals any accepted reference,
 *   the bypass's CORRECT).
 * - Judges × `--judge-runs` samples are combined by majority; ties and
 *   unparseable verdicts count as WRONG.
 * - Accuracy is a micro average over questions, shown in the paper's columns
 *   ME | AO | Comp | Temp | Ctx | Nu | Contr | All, overall, by source and by topic
 *   (paper Tables 1 and 13; the released `postprocess.py`).
 * - The waterfall (paper §4, Figure 3) chains the three settings over the same question ids:
 *   S_O = correct under oracle, S_P = S_O ∩ correct under perfect retrieval,
 *   S_D = S_P ∩ correct by default; P_preserve = |S_P|/|S_O|, P_retrieve = |S_D|/|S_P|.
 */
import { z } from "zod";
import type { Probe } from "../../core/model.ts";
import type { Setting } from "../../core/record.ts";
import { judgeAll, majority, verdictScores } from "../../score/judge.ts";
import type { PromptSet } from "../../score/prompts.ts";
import type {
  BenchmarkScorer,
  PaperTable,
  ProbeOutcome,
  ProbeScore,
  ScoreContext,
  ScoreInput,
} from "../../score/types.ts";
import { RELATION_TYPES } from "./labels.ts";

const BENCH = "subtlememory";
export const JUDGE_TEMPLATE = "judge";

export const SubtleVerdict = z.object({
  label: z.enum(["CORRECT", "WRONG"]),
  reason: z.string().default(""),
});
export type SubtleVerdict = z.infer<typeof SubtleVerdict>;

// ---------------------------------------------------------------------------
// Exact-match bypass

/** The reference code's comparison form: whitespace runs collapsed, trimmed, lower-cased. */
export function normalizeReference(text: string): string {
  return text.split(/\s+/).filter(Boolean).join(" ").toLowerCase();
}

/**
 * true / false when the answer equals an accepted / a known-wrong reference
 * after normalisation (accepted checked first); undefined when a judge must decide.
 * An empty answer never bypasses.
 */
export function exactReferenceVerdict(
  answer: string,
  accepted: readonly string[],
  wrong: readonly string[],
): boolean | undefined {
  const a = normalizeReference(answer);
  if (!a) return undefined;
  if (accepted.some((r) => normalizeReference(r) === a)) return true;
  if (wrong.some((r) => normalizeReference(r) === a)) return false;
  return undefined;
}

/**
 * The released post-processing's `exact_match`: 1 when the answer equals
 * `golden_answer` (the first accepted reference) under the same
 * normalisation, else 0. The other accepted references do not count.
 */
export function goldenExactMatch(answer: string, accepted: readonly string[]): number {
  const golden = accepted[0] ?? "";
  return normalizeReference(answer) === normalizeReference(golden) ? 1 : 0;
}

// ---------------------------------------------------------------------------
// Judge prompt

const SUBTYPE_GUIDANCE: Record<string, string> = {
  "Multi-evidence": "multi-evidence",
  "Any-one": "any-one",
  "K=1": "single-decisive",
  Temporal: "temporal",
  Contextual: "contextual",
  Contradictory: "contradictory",
};
/** Non-user contradiction subtypes get their own guidance: their "user" wording is not about a persona. */
const NON_PERSONA_SUBTYPES = new Set(["a_user_vs_user", "b_user_vs_non_user", "c_non_user_vs_non_user"]);

/** Which guidance files a probe gets: `guidance/type-*`, `guidance/subtype-*`, `guidance/source-*`. */
export function guidanceKeys(probe: Probe): { type: string; subtype: string; source: string } {
  const labels = probe.labels;
  const raw = String(probe.meta?.relationSubtypeRaw ?? "").trim();
  const type = (RELATION_TYPES as readonly string[]).includes(labels.relation_type ?? "")
    ? (labels.relation_type as string)
    : "default";
  const subtype = NON_PERSONA_SUBTYPES.has(raw)
    ? "non-persona-contradiction"
    : (SUBTYPE_GUIDANCE[labels.relation_subtype ?? ""] ?? "default");
  const source =
    labels.source === "user-related" || labels.source === "user-unrelated" ? (labels.source as string) : "default";
  return { type, subtype, source };
}

function bullets(items: readonly string[], empty: string): string {
  return items.length ? items.map((s) => `- ${s}`).join("\n") : empty;
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/**
 * Every variable the judge template may use. Names follow the reference
 * harness's placeholders, so its wording can be dropped in with `--prompts`.
 */
export function judgeVars(input: ScoreInput, answer: string, prompts: PromptSet): Record<string, string> {
  const { probe, episode } = input;
  const meta = probe.meta ?? {};
  const guide = (name: string, vars: Record<string, string> = {}) =>
    prompts.render(BENCH, `guidance/${name}`, vars).text;
  const keys = guidanceKeys(probe);
  const facts = Array.isArray(meta.facts) ? meta.facts.filter((f): f is string => typeof f === "string") : [];
  // The loader keeps the persona for user-related questions only; the check here guards hand-made probes.
  const persona = probe.labels.source === "user-related" ? text(meta.persona) : "";
  const subtype = text(meta.relationSubtypeRaw) || probe.labels.relation_subtype || "";
  return {
    question: probe.question,
    golden_answer: probe.gold.answers[0] ?? "",
    accepted_correct_answers_block: bullets(probe.gold.answers, "(none)"),
    known_incorrect_answers_block: bullets(probe.gold.wrongAnswers, "(no known wrong answers given)"),
    generated_answer: answer,
    facts_block: bullets(facts, "(no facts given)"),
    case_description_block: text(meta.case) || "(none)",
    relation_type: probe.labels.relation_type || "(none)",
    relation_subtype: subtype || "(none)",
    topic: probe.labels.topic || "(none)",
    source: probe.labels.source || "(none)",
    persona_str: persona || "(none)",
    persona_id: text(episode.meta?.personaId) || "(none)",
    case_id: text(meta.caseId) || "(none)",
    instance_id: text(meta.instanceId) || "(none)",
    relation_guidance_block: [
      "Relation guidance:",
      `- ${guide(`type-${keys.type}`)}`,
      `- ${guide(`subtype-${keys.subtype}`)}`,
    ].join("\n"),
    source_guidance_block: `Source guidance: ${guide(`source-${keys.source}`)}`,
    persona_context_block: persona ? guide("persona", { persona }) : "",
  };
}

// ---------------------------------------------------------------------------
// Per probe

function skipAll(reason: string): ProbeOutcome {
  return { metrics: {}, verdicts: [], judgeFailures: 0, skipped: { accuracy: reason, em: reason, em_any: reason } };
}

async function scoreProbe(input: ScoreInput, ctx: ScoreContext): Promise<ProbeOutcome> {
  const { record, probe } = input;
  if (record.status === "skipped") return skipAll(`setting skipped: ${record.skipReason ?? "no reason given"}`);
  if (record.answerSkipped !== undefined) return skipAll(`no answer: ${record.answerSkipped}`);
  if (record.answerError !== undefined) {
    return {
      metrics: { accuracy: 0, em: 0, em_any: 0 },
      verdicts: [],
      judgeFailures: 0,
      skipped: { answer: `answer call failed, scored as wrong: ${record.answerError}` },
    };
  }
  if (record.answer === undefined) return skipAll("no answer stored");
  const answer = record.answer;
  const bypass = exactReferenceVerdict(answer, probe.gold.answers, probe.gold.wrongAnswers);
  const exact = { em: goldenExactMatch(answer, probe.gold.answers), em_any: bypass === true ? 1 : 0 };
  // Without a judge only the exact matches could be scored, and their mean would say nothing about the rest.
  if (!ctx.judge?.judges.length) {
    return { metrics: exact, verdicts: [], judgeFailures: 0, skipped: { accuracy: "no judge configured" } };
  }
  if (bypass !== undefined) {
    return { metrics: { accuracy: bypass ? 1 : 0, ...exact }, verdicts: [], judgeFailures: 0 };
  }
  const verdicts = await judgeAll(
    {
      bench: BENCH,
      template: JUDGE_TEMPLATE,
      vars: judgeVars(input, answer, ctx.judge.prompts),
      schema: SubtleVerdict,
    },
    ctx.judge,
  );
  const accuracy = majority(
    verdictScores(verdicts, (v) => (v.label === "CORRECT" ? 1 : 0), 0),
    0,
  );
  return { metrics: { accuracy, ...exact }, verdicts, judgeFailures: verdicts.filter((v) => !v.ok).length };
}

// ---------------------------------------------------------------------------
// Paper tables

export const PAPER_COLUMNS = ["ME", "AO", "Comp", "Temp", "Ctx", "Nu", "Contr", "All"] as const;
export type PaperColumn = (typeof PAPER_COLUMNS)[number];

const IN_COLUMN: Record<PaperColumn, (labels: Record<string, string>) => boolean> = {
  ME: (l) => l.relation_subtype === "Multi-evidence",
  AO: (l) => l.relation_subtype === "Any-one",
  Comp: (l) => l.relation_type === "complementary",
  Temp: (l) => l.relation_subtype === "Temporal",
  Ctx: (l) => l.relation_subtype === "Contextual",
  Nu: (l) => l.relation_type === "nuanced",
  Contr: (l) => l.relation_type === "contradictory",
  All: () => true,
};

export const TABLE_IDS = {
  main: "subtlememory-main",
  bySource: "subtlememory-by-source",
  byTopic: "subtlememory-by-topic",
} as const;

/** Accuracy ×100 per paper column (null where no question was scored), with the question counts. */
export function paperCells(scores: readonly ProbeScore[]): {
  cells: Record<string, number | null>;
  n: Record<string, number>;
} {
  const cells: Record<string, number | null> = {};
  const n: Record<string, number> = {};
  for (const column of PAPER_COLUMNS) {
    const values = scores
      .filter((s) => IN_COLUMN[column](s.labels))
      .map((s) => s.metrics.accuracy)
      .filter((v): v is number => v !== undefined && Number.isFinite(v));
    cells[column] = values.length ? (100 * values.reduce((a, b) => a + b, 0)) / values.length : null;
    n[column] = values.length;
  }
  return { cells, n };
}

function rowLabel(scores: readonly ProbeScore[]): string {
  const first = scores[0];
  if (!first) return "ours";
  return first.setting === "default" ? first.system : `${first.system} (${first.setting})`;
}

function groupRows(scores: readonly ProbeScore[], label: string) {
  const values = [...new Set(scores.map((s) => s.labels[label]).filter((v): v is string => v !== undefined))].sort();
  return values.map((value) => ({ label: value, ...paperCells(scores.filter((s) => s.labels[label] === value)) }));
}

function tables(scores: readonly ProbeScore[]): PaperTable[] {
  const columns = [...PAPER_COLUMNS];
  return [
    {
      id: TABLE_IDS.main,
      title: "SubtleMemory Table 1: answer accuracy (%) by relation type and subtype",
      columns,
      rows: [{ label: rowLabel(scores), ...paperCells(scores) }],
      note: "ME = Multi-evidence, AO = Any-one, Comp = Complementary, Temp = Temporal, Ctx = Contextual, Nu = Nuanced, Contr = Contradictory.",
    },
    {
      id: TABLE_IDS.bySource,
      title: `SubtleMemory accuracy (%) by source, ${rowLabel(scores)}`,
      columns,
      rows: groupRows(scores, "source"),
    },
    {
      id: TABLE_IDS.byTopic,
      title: `SubtleMemory accuracy (%) by topic, ${rowLabel(scores)}`,
      columns,
      rows: groupRows(scores, "topic"),
    },
  ];
}

// ---------------------------------------------------------------------------
// Waterfall (across settings)

export interface Waterfall {
  /** Questions scored under all three settings: the chain is taken over these. */
  n: number;
  sO: number;
  sP: number;
  sD: number;
  pPreserve?: number;
  pRetrieve?: number;
}

const key = (s: ProbeScore) => `${s.episodeId}\u0000${s.probeId}`;

function accuracyById(scores: readonly ProbeScore[] | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of scores ?? []) {
    const v = s.metrics.accuracy;
    if (v !== undefined && Number.isFinite(v)) out.set(key(s), v);
  }
  return out;
}

/**
 * The staged waterfall over question ids. A question missing from a setting
 * (not run, no answer, no judge) is left out of the chain rather than counted
 * as a failure of that stage.
 */
export function waterfall(
  bySetting: Partial<Record<Setting, readonly ProbeScore[]>>,
  include: (s: ProbeScore) => boolean = () => true,
): Waterfall {
  const pick = (setting: Setting) => accuracyById(bySetting[setting]?.filter(include));
  const oracle = pick("oracle");
  const perfect = pick("perfect");
  const standard = pick("default");
  const ids = [...oracle.keys()].filter((id) => perfect.has(id) && standard.has(id));
  const sO = ids.filter((id) => oracle.get(id) === 1);
  const sP = sO.filter((id) => perfect.get(id) === 1);
  const sD = sP.filter((id) => standard.get(id) === 1);
  return {
    n: ids.length,
    sO: sO.length,
    sP: sP.length,
    sD: sD.length,
    ...(sO.length ? { pPreserve: sP.length / sO.length } : {}),
    ...(sP.length ? { pRetrieve: sD.length / sP.length } : {}),
  };
}

/** p_preserve / p_retrieve overall and per relation type (`p_preserve_nuanced`, …), with the set sizes. */
function crossSetting(bySetting: Partial<Record<Setting, readonly ProbeScore[]>>): Record<string, number> {
  if (!bySetting.oracle?.length || !bySetting.perfect?.length || !bySetting.default?.length) return {};
  const out: Record<string, number> = {};
  const put = (suffix: string, w: Waterfall) => {
    if (w.pPreserve !== undefined) out[`p_preserve${suffix}`] = w.pPreserve;
    if (w.pRetrieve !== undefined) out[`p_retrieve${suffix}`] = w.pRetrieve;
  };
  const all = waterfall(bySetting);
  if (!all.n) return {};
  put("", all);
  out.waterfall_n = all.n;
  out.waterfall_s_o = all.sO;
  out.waterfall_s_p = all.sP;
  out.waterfall_s_d = all.sD;
  for (const type of RELATION_TYPES)
    put(
      `_${type}`,
      waterfall(bySetting, (s) => s.labels.relation_type === type),
    );
  return out;
}

export const subtlememoryScorer: BenchmarkScorer = {
  bench: BENCH,
  needsJudge: true,
  stratifyBy: "relation_type",
  scoreProbe,
  crossSetting,
  tables,
};
