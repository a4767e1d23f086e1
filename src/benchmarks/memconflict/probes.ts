/**
 * Turns one session's `Session_Questions` into probes that fire right after
 * that session is ingested (arXiv 2605.20926, evaluation protocol: a query is
 * asked immediately after the session that makes its conflict evaluable).
 */
import { DataError } from "../../core/errors.ts";
import type { ProbeInput } from "../../core/model.ts";
import { buildEvidence, type QuestionKey, tieQuestions } from "./evidence.ts";
import { ABILITY_TARGETS, CONFLICT_TYPES, type ConflictKind, DIFFICULTIES, isOneOf, QUERY_STYLES } from "./format.ts";
import type { Item } from "./item.ts";
import type { SessionRecords } from "./records.ts";
import type { Reporter } from "./reporter.ts";

interface Question extends QuestionKey {
  item: Item;
  question: string;
  answer: string;
  conflictType: string;
  ability: string;
  difficulty: string;
  style: string;
  originalQuestion?: string;
  rewriteMethod?: string;
}

export interface SessionProbeInput {
  personaId: string;
  session: Item;
  records: SessionRecords;
  chain: SessionRecords[];
  time?: string;
  /** Query style of the persona when its questions do not say (`Question_Style_Metadata`). */
  defaultStyle: string;
}

function readQuestion(item: Item, defaultStyle: string, report: Reporter): Question {
  const conflictType = item.str("conflict_type").trim();
  const ability = item.str("ability_target").trim();
  const difficulty = item.str("difficulty").trim();
  const where = (f: string) => ({ ...item.where, field: item.field(f) });
  const kind: ConflictKind | undefined = CONFLICT_TYPES[conflictType];
  if (!kind) report.issue(`unknown conflict_type "${conflictType}"`, where("conflict_type"));
  if (!isOneOf(ABILITY_TARGETS, ability)) report.issue(`unknown ability_target "${ability}"`, where("ability_target"));
  if (!isOneOf(DIFFICULTIES, difficulty)) report.issue(`unknown difficulty "${difficulty}"`, where("difficulty"));
  const rawStyle = item.optStr("Question_Style")?.trim();
  const style = rawStyle === undefined ? defaultStyle : (QUERY_STYLES[rawStyle] ?? rawStyle);
  if (rawStyle !== undefined && !QUERY_STYLES[rawStyle]) {
    report.issue(`unknown Question_Style "${rawStyle}"`, where("Question_Style"));
  }
  const originalQuestion = item.optStr("Original_Question");
  const rewriteMethod = item.optStr("Rewrite_Method");
  return {
    item,
    questionId: item.text("question_id").trim(),
    question: item.text("question"),
    answer: item.text("answer"),
    conflictType,
    kind,
    ability,
    difficulty,
    style,
    ...(originalQuestion !== undefined ? { originalQuestion } : {}),
    ...(rewriteMethod !== undefined ? { rewriteMethod } : {}),
  };
}

/** The probes of one session, with evidence derived from the conflict records. */
export function sessionProbes(input: SessionProbeInput, report: Reporter): ProbeInput[] {
  const { personaId, session, records, chain, time, defaultStyle } = input;
  const questions = session.items("Session_Questions").map((q) => readQuestion(q, defaultStyle, report));
  const seen = new Set<string>();
  for (const q of questions) {
    if (seen.has(q.questionId)) {
      throw new DataError(`duplicate question_id "${q.questionId}" in session ${records.id}`, {
        ...q.item.where,
        field: q.item.field("question_id"),
      });
    }
    seen.add(q.questionId);
  }
  const ties = tieQuestions(records, questions);
  return questions.map((q, i) => {
    const tie = ties[i] ?? { method: "none", targets: [] };
    const where = { ...q.item.where, field: q.item.field("question_id") };
    if (tie.method === "none") {
      report.warn(`question ${q.questionId} matches no ${q.conflictType} record of session ${records.id}`, where);
    }
    const evidence = buildEvidence(chain, records, tie.targets, (m) =>
      report.warn(`question ${q.questionId}: ${m}`, where),
    );
    return {
      id: `${personaId}:${records.id}:${q.questionId}`,
      question: q.question,
      ...(time ? { time } : {}),
      position: { at: "after", sessionId: records.id },
      labels: {
        conflict_type: q.kind ?? q.conflictType,
        ability: q.ability,
        difficulty: q.difficulty,
        query_style: q.style,
      },
      gold: {
        answers: [q.answer],
        evidenceSessionIds: evidence.sessionIds,
        evidenceMemories: evidence.memories,
      },
      meta: {
        questionId: q.questionId,
        evidenceTie: tie.method,
        ...(evidence.distance !== undefined ? { distance: evidence.distance } : {}),
        ...evidence.meta,
        ...(q.originalQuestion !== undefined ? { originalQuestion: q.originalQuestion } : {}),
        ...(q.rewriteMethod !== undefined ? { rewriteMethod: q.rewriteMethod } : {}),
      },
    } satisfies ProbeInput;
  });
}
