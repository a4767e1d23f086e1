/**
 * How MemConflict's released scorer turns a judge reply into metrics when
 * membench's own verdict check refuses it (option `judge_failure=code`;
 * TaoZhen1110/MemConflict@17cbc14:Evaluation/eval_scoring.py, its reply parsing
 * and its rule-based fallback).
 *
 * - A reply holding a JSON object is read field by field, leniently: AA on the
 *   dynamic and static scale is snapped (≥ 0.75 → 1, ≥ 0.25 → 0.5, else 0),
 *   binary fields (conditional AA, UOCS, CRS) are Python's `int()` of the
 *   value, 1 when nonzero; a rank outside 1..5 is 0; a missing or unreadable
 *   field is 0.
 * - Anything else (no JSON object, or a failed call) is scored by the
 *   rule-based fallback from the gold answer and the model's answer alone:
 *   token overlap for AA, marker words for UOCS and CRS, and rank 0.
 *
 * The details (the text normalisation, the stopword list, the marker words,
 * Python's number conversions) follow that file; the fields are ours (`aa`, `uocs`, `crs`,
 * `first_support_rank`), as our judge template asks for them.
 */
import { pythonFloat, pythonInt } from "../../score/python-values.ts";
import type { ConflictKind } from "./format.ts";

export interface ReleasedVerdict {
  aa: 0 | 0.5 | 1;
  first_support_rank: number;
  uocs?: 0 | 1;
  crs?: 0 | 1;
}

/** The released `parse_trinary_score_value`: booleans as 1/0, else the number snapped to 0 / 0.5 / 1. */
export function snapAa(value: unknown): 0 | 0.5 | 1 {
  const n = pythonFloat(value);
  if (n === undefined) return 0;
  return n >= 0.75 ? 1 : n >= 0.25 ? 0.5 : 0;
}

/** The released `parse_binary_value`: 1 when Python's `int()` of it is nonzero. */
export function binaryValue(value: unknown): 0 | 1 {
  const n = pythonInt(value);
  return n !== undefined && n !== 0 ? 1 : 0;
}

/** The released `parse_support_rank`: Python's `int()` of it when within 1..depth, else 0. */
export function supportRank(value: unknown, depth: number): number {
  const n = pythonInt(value);
  return n !== undefined && n >= 1 && n <= depth ? n : 0;
}

/** A judge's JSON object read the released way. */
export function releasedVerdict(fields: Record<string, unknown>, kind: ConflictKind, depth: number): ReleasedVerdict {
  const out: ReleasedVerdict = {
    aa: kind === "conditional" ? binaryValue(fields.aa ?? 0) : snapAa(fields.aa ?? 0),
    first_support_rank: supportRank(fields.first_support_rank ?? 0, depth),
  };
  if (kind === "dynamic") out.uocs = binaryValue(fields.uocs ?? 0);
  if (kind === "static") out.crs = binaryValue(fields.crs ?? 0);
  return out;
}

// ---------------------------------------------------------------- rule-based fallback

/** Lower-cased; `_` and `-` as spaces; every character but letters, digits, spaces and CJK ideographs blanked. */
export function normalizeFallback(text: string): string {
  return text
    .replaceAll("_", " ")
    .replaceAll("-", " ")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s\u4e00-\u9fff]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The whole text and, where it has them, its parts between `||`, newlines and `;`, normalised, distinct, non-empty. */
export function answerVariants(text: string): string[] {
  const raw = text.trim();
  if (!raw) return [];
  const variants: string[] = [];
  const add = (candidate: string) => {
    const normalized = normalizeFallback(candidate);
    if (normalized && !variants.includes(normalized)) variants.push(normalized);
  };
  add(raw);
  for (const separator of ["||", "\n", ";"]) {
    if (raw.includes(separator)) for (const part of raw.split(separator)) add(part);
  }
  return variants;
}

/** The released fallback's stopwords (`FALLBACK_STOPWORDS`). */
const STOPWORDS = new Set(
  (
    "a an the is are was were be been being to from of in on at for with by as and or but if then than that this " +
    "these those it they them their he she his her you your user users now current currently recently about did " +
    "does do has have had what where when which"
  ).split(" "),
);

/** Tokens of a normalised text longer than one character and not stopwords. */
function meaningfulTokens(text: string): Set<string> {
  return new Set(
    normalizeFallback(text)
      .split(" ")
      .filter((t) => [...t].length > 1 && !STOPWORDS.has(t)),
  );
}

const length = (s: string) => [...s].length;

/**
 * The fallback's answer score: 1 when a variant of the answer equals a variant
 * of the gold; 0.5 when one variant of at least 8 characters contains the
 * other, or when the best pair shares two meaningful tokens or half of the
 * gold's; else 0.
 */
export function overlapScore(gold: string, answer: string): 0 | 0.5 | 1 {
  const goldVariants = answerVariants(gold);
  const answerVariantList = answerVariants(answer);
  if (!goldVariants.length || !answerVariantList.length) return 0;
  if (goldVariants.some((g) => answerVariantList.includes(g))) return 1;
  let bestRatio = 0;
  let bestShared = 0;
  for (const g of goldVariants) {
    const goldTokens = meaningfulTokens(g);
    if (!goldTokens.size) continue;
    for (const a of answerVariantList) {
      const answerTokens = meaningfulTokens(a);
      if (!answerTokens.size) continue;
      const shared = [...goldTokens].filter((t) => answerTokens.has(t)).length;
      bestRatio = Math.max(bestRatio, shared / goldTokens.size);
      bestShared = Math.max(bestShared, shared);
      if ((a.includes(g) && length(g) >= 8) || (g.includes(a) && length(a) >= 8)) return 0.5;
    }
  }
  return bestShared >= 2 || bestRatio >= 0.5 ? 0.5 : 0;
}

const CHANGE_MARKERS = ["changed", "change", "updated", "update", "switched"];
const ORDER_MARKERS: ReadonlyArray<[string, string]> = [
  ["from", "to"],
  ["previously", "now"],
  ["used to", "now"],
  ["before", "now"],
];
const CONFLICT_MARKERS = ["inconsisten", "conflict", "contradict", "cannot confirm", "uncertain", "mismatch"];

/** A change marker and both halves of an order pair, as substrings of the normalised answer ("to" is in "today"). */
export function updateOrderSignal(answer: string): boolean {
  const text = normalizeFallback(answer);
  if (!text) return false;
  return (
    CHANGE_MARKERS.some((m) => text.includes(m)) && ORDER_MARKERS.some(([a, b]) => text.includes(a) && text.includes(b))
  );
}

/** A conflict marker as a substring of the normalised answer. */
export function conflictSignal(answer: string): boolean {
  const text = normalizeFallback(answer);
  return CONFLICT_MARKERS.some((m) => text.includes(m));
}

/** The released rule-based verdict: AA from overlap, UOCS and CRS from marker words, no support found. */
export function fallbackVerdict(kind: ConflictKind, gold: string, answer: string): ReleasedVerdict {
  const score = overlapScore(gold, answer);
  if (kind === "conditional") return { aa: score >= 0.5 ? 1 : 0, first_support_rank: 0 };
  if (kind === "dynamic") {
    return { aa: score, first_support_rank: 0, uocs: score >= 0.5 && updateOrderSignal(answer) ? 1 : 0 };
  }
  return { aa: score, first_support_rank: 0, crs: conflictSignal(answer) ? 1 : 0 };
}
