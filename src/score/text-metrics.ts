/**
 * String metrics with SQuAD-style normalisation (MemoryAgentBench's released
 * `utils/eval_other_utils.py`),
 * shared by MemoryAgentBench, LoCoMo and the exact-match bypasses of judges.
 */
const PUNCT = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/** Lowercase, drop ASCII punctuation, drop articles, collapse whitespace. */
export function normalizeAnswer(s: string): string {
  return s
    .toLowerCase()
    .replace(PUNCT, "")
    .replace(/\b(a|an|the)\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export function exactMatch(pred: string, gold: string): number {
  return normalizeAnswer(pred) === normalizeAnswer(gold) ? 1 : 0;
}

/** 1 when the normalised gold is a substring of the normalised prediction. */
export function substringMatch(pred: string, gold: string): number {
  const g = normalizeAnswer(gold);
  return g.length > 0 && normalizeAnswer(pred).includes(g) ? 1 : 0;
}

/** Token-overlap F1; a yes/no/noanswer mismatch scores 0. */
export function tokenF1(pred: string, gold: string): number {
  const p = normalizeAnswer(pred);
  const g = normalizeAnswer(gold);
  const special = ["yes", "no", "noanswer"];
  if ((special.includes(p) || special.includes(g)) && p !== g) return 0;
  const pt = p.split(" ").filter(Boolean);
  const gt = g.split(" ").filter(Boolean);
  if (!pt.length || !gt.length) return 0;
  const counts = new Map<string, number>();
  for (const t of gt) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of pt) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      common++;
      counts.set(t, c - 1);
    }
  }
  if (!common) return 0;
  const precision = common / pt.length;
  const recall = common / gt.length;
  return (2 * precision * recall) / (precision + recall);
}

function lcs(a: readonly string[], b: readonly string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let prev = 0;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = x === b[j - 1] ? prev + 1 : Math.max(row[j]!, row[j - 1]!);
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/** ROUGE-L F-measure on lowercased word tokens (no stemming). */
export function rougeL(pred: string, gold: string): number {
  const tok = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const p = tok(pred);
  const g = tok(gold);
  if (!p.length || !g.length) return 0;
  const l = lcs(p, g);
  if (!l) return 0;
  const precision = l / p.length;
  const recall = l / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** The best score over several accepted answers (0 when there are none). */
export function bestOver(golds: readonly string[], metric: (gold: string) => number): number {
  let best = 0;
  for (const g of golds) best = Math.max(best, metric(g));
  return best;
}

/**
 * The answer part of a model's output: the text after "Answer:" on its line,
 * else the first line (MemoryAgentBench's released `utils/eval_other_utils.py`).
 */
export function parseAnswerLine(text: string, prefix = "Answer:"): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(`(?:${escaped})(.*)(?:\\n|$)`, "i").exec(text);
  let out = m ? (m[1] ?? "") : (text.split("\n")[0] ?? "");
  out = out.trim();
  while (out.toLowerCase().startsWith(prefix.toLowerCase())) out = out.slice(prefix.length).trim();
  return out;
}
