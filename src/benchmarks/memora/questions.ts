/**
 * Reads `evaluation_questions_<persona>.json` into probes: one per question,
 * all asked at the end of the timeline, with the rubric (memory presence /
 * forgetting absence) as criteria and the evidence sessions of both kinds.
 */
import { DataError } from "../../core/errors.ts";
import type { Criterion, ProbeInput } from "../../core/model.ts";
import type { LoadContext } from "../shared/context.ts";
import { asRecord, type FieldWhere, isRecord, optString, type Rec, reqArray, reqString } from "../shared/fields.ts";
import { parseLooseTime } from "../shared/time.ts";
import { collectSessionRefs, evidenceFacts, sessionIdOf } from "./evidence.ts";
import { CRITERION_KINDS, type QuestionKind, questionKind, questionTemplate, SUBTYPE_TASKS, TASKS } from "./labels.ts";

export interface QuestionFileContext {
  file: string;
  episodeId: string;
  duration: string;
  persona: string;
  /** `date_range.end_date`: the question point when a question names no date. */
  endDate?: string;
}

function reqRecord(rec: Rec, field: string, where: FieldWhere): Rec {
  if (rec[field] === undefined) throw new DataError("missing", { ...where, field });
  return asRecord(rec[field], where, field);
}

function dayOf(rec: Rec, field: string, where: FieldWhere): string | undefined {
  const raw = optString(rec, field, where);
  if (raw === undefined) return undefined;
  const time = parseLooseTime(raw);
  if (!time) throw new DataError(`expected a date, got "${raw}"`, { ...where, field });
  return time;
}

function readCriteria(evaluation: Rec, where: FieldWhere, ctx: LoadContext): Criterion[] {
  const list = reqArray(evaluation, "evaluation_questions", where);
  const criteria: Criterion[] = [];
  list.forEach((item, i) => {
    const field = `evaluation.evaluation_questions[${i}]`;
    const rec = asRecord(item, where, field);
    const at = { file: where.file, record: `${where.record} ${field}` };
    const text = reqString(rec, "evaluation_question", at);
    const type = reqString(rec, "evaluation_type", at);
    const expected = reqString(rec, "expected_answer", at).trim().toLowerCase();
    const id = optString(rec, "evaluation_question_id", at);
    const kind = CRITERION_KINDS[type];
    if (!kind) {
      ctx.issue(
        `unknown evaluation_type "${type}" (expected memory_presence or forgetting_absence); criterion skipped`,
        {
          ...where,
          field: `${field}.evaluation_type`,
        },
      );
      return;
    }
    if (expected !== "yes" && expected !== "no") {
      ctx.issue(`expected_answer must be yes or no, got "${expected}"; criterion skipped`, {
        ...where,
        field: `${field}.expected_answer`,
      });
      return;
    }
    if (expected !== kind.expected) {
      ctx.issue(`a ${type} criterion should expect "${kind.expected}", got "${expected}"`, {
        ...where,
        field: `${field}.expected_answer`,
      });
    }
    criteria.push({ text, kind: kind.kind, expected, meta: { type, ...(id ? { id } : {}) } });
  });
  const counts: Array<[string, number]> = [
    ["total_evaluation_questions", list.length],
    ["memory_presence_questions", criteria.filter((c) => c.kind === "presence").length],
    ["forgetting_absence_questions", criteria.filter((c) => c.kind === "absence").length],
  ];
  for (const [name, actual] of counts) {
    const stated = evaluation[name];
    if (typeof stated === "number" && stated !== actual) {
      ctx.issue(`says ${stated} but the list has ${actual}`, { ...where, field: `evaluation.${name}` });
    }
  }
  return criteria;
}

function sessionIds(evidence: unknown, field: string, where: FieldWhere, ctx: LoadContext): string[] {
  const { refs, bad } = collectSessionRefs(evidence, field);
  // Evidence feeds no Memora score (the judge reads the criteria), so strict mode loads it too.
  for (const b of bad) {
    ctx.warn(`not a session reference: ${JSON.stringify(b.value)} (dropped from the evidence)`, {
      ...where,
      field: b.path,
    });
  }
  return refs.map(sessionIdOf);
}

function kindOf(q: Rec, questionId: string | undefined, task: string | undefined, where: FieldWhere, ctx: LoadContext) {
  const stated = optString(q, "question_type", where);
  let kind: QuestionKind | undefined;
  if (stated !== undefined) {
    if (!SUBTYPE_TASKS[stated]) ctx.issue(`unknown question_type "${stated}"`, { ...where, field: "question_type" });
    kind = {
      subtype: stated,
      category: optString(q, "category", where) ?? questionKind(questionId ?? "")?.category ?? "",
    };
  } else if (questionId !== undefined) {
    kind = questionKind(questionId);
    if (!kind) ctx.issue("does not follow a known Memora question template", { ...where, field: "question_id" });
  }
  const expectedTask = kind ? SUBTYPE_TASKS[kind.subtype] : undefined;
  if (expectedTask && task && expectedTask !== task) {
    ctx.issue(`a ${kind?.subtype} question is a ${expectedTask} question but is filed under ${task}`, {
      ...where,
      field: "question_id",
    });
  }
  return kind;
}

/** Probes of one evaluation file, in file order (task by task). */
export function readQuestions(root: Rec, fc: QuestionFileContext, ctx: LoadContext): ProbeInput[] {
  const questions = reqRecord(root, "questions", { file: fc.file, record: "(root)" });
  const probes: ProbeInput[] = [];
  const seen = new Map<string, string>();
  let index = 0;
  for (const key of Object.keys(questions)) {
    const task = TASKS[key.toLowerCase()];
    if (!task) {
      ctx.issue(`unknown task "${key}" (expected remembering, reasoning or recommending)`, {
        file: fc.file,
        record: "(root)",
        field: `questions.${key}`,
      });
    }
    const items = reqArray(questions, key, { file: fc.file, record: "(root)" });
    items.forEach((item, i) => {
      const slot = `questions.${key}[${i}]`;
      const q = asRecord(item, { file: fc.file, record: slot });
      const questionId = optString(q, "question_id", { file: fc.file, record: slot });
      const where = { file: fc.file, record: questionId ? `${slot} ${questionId}` : slot };
      const id = questionId ?? `${fc.episodeId}:${index}`;
      index++;
      const prior = seen.get(id);
      if (prior)
        throw new DataError(`duplicate question_id "${id}" (also ${prior})`, { ...where, field: "question_id" });
      seen.set(id, slot);

      const question = reqString(q, "question", where);
      if (!question.trim()) throw new DataError("empty", { ...where, field: "question" });
      // The release names it question_date; the harness reads session_date (`model_based_evaluator.py`).
      const time = dayOf(q, "question_date", where) ?? dayOf(q, "session_date", where) ?? fc.endDate;
      const kind = kindOf(q, questionId, task, where, ctx);
      const template = questionId ? questionTemplate(questionId) : undefined;
      const criteria = readCriteria(reqRecord(q, "evaluation", where), where, ctx);
      const memory = q.memory_evidence;
      const forgetting = q.forgetting_evidence;
      const staleMemories = evidenceFacts(forgetting);

      probes.push({
        id,
        question,
        time,
        position: { at: "end" },
        labels: {
          task: task ?? key,
          ...(kind?.subtype ? { subtype: kind.subtype } : {}),
          ...(kind?.category ? { category: kind.category } : {}),
          ...(template ? { template } : {}),
          duration: fc.duration,
          persona: fc.persona,
        },
        gold: {
          criteria,
          evidenceSessionIds: sessionIds(memory, "memory_evidence", where, ctx),
          staleSessionIds: sessionIds(forgetting, "forgetting_evidence", where, ctx),
          evidenceMemories: evidenceFacts(memory),
        },
        ...(staleMemories.length ? { meta: { staleMemories } } : {}),
      });
    });
  }
  return probes;
}

/** `date_range` of the evaluation file, when present and well formed. */
export function dateRange(root: Rec, file: string): { start?: string; end?: string } {
  const range = root.date_range;
  if (!isRecord(range)) return {};
  const day = (field: string) => {
    const raw = range[field];
    if (raw === undefined || raw === null) return undefined;
    const time = typeof raw === "string" ? parseLooseTime(raw) : undefined;
    if (!time)
      throw new DataError(`expected a date, got ${JSON.stringify(raw)}`, {
        file,
        record: "(root)",
        field: `date_range.${field}`,
      });
    return time;
  };
  return { start: day("start_date"), end: day("end_date") };
}
