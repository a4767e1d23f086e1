/**
 * Cohen's kappa between every pair of raters (judges or humans) over the items
 * both labelled, per group when the items carry one. Labels compare trimmed
 * and case-insensitively. `membench judge-agreement` gets the labels from a
 * CSV (`labels-csv.ts`, here) or from a scored run's stored verdicts
 * (`runJudgeAgreement` in run/run-labels.ts, which reads the run store); both
 * go through `pairwiseAgreement`, so they give the same numbers.
 */
import { cohenKappa } from "./bootstrap.ts";
import { type LabelTable, readLabelsCsv } from "./labels-csv.ts";

export interface AgreementRow {
  /** The items' group (a run's `system/setting`); absent when the labels have none. */
  group?: string;
  a: string;
  b: string;
  /** Items both raters labelled. */
  n: number;
  /** Share of those items with the same label (NaN when n = 0). */
  agreement: number;
  kappa: number;
}

const norm = (label: string | undefined) => label?.trim().toLowerCase() || undefined;

/** κ for every rater pair, per group in the order groups first appear. */
export function pairwiseAgreement(table: LabelTable): AgreementRow[] {
  const groups = [...new Set(table.items.map((item) => item.group))];
  const out: AgreementRow[] = [];
  for (const group of groups) {
    const items = table.items.filter((item) => item.group === group);
    for (let i = 0; i < table.raters.length; i++) {
      for (let j = i + 1; j < table.raters.length; j++) {
        const a: string[] = [];
        const b: string[] = [];
        for (const item of items) {
          const x = norm(item.labels[i]);
          const y = norm(item.labels[j]);
          if (x === undefined || y === undefined) continue;
          a.push(x);
          b.push(y);
        }
        const same = a.filter((x, k) => x === b[k]).length;
        out.push({
          ...(group !== undefined ? { group } : {}),
          a: table.raters[i]!,
          b: table.raters[j]!,
          n: a.length,
          agreement: a.length ? same / a.length : Number.NaN,
          kappa: cohenKappa(a, b),
        });
      }
    }
  }
  return out;
}

/** `membench judge-agreement labels.csv`. */
export function judgeAgreement(file: string): AgreementRow[] {
  return pairwiseAgreement(readLabelsCsv(file));
}
