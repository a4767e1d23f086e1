/**
 * Counterfactual edit pairs for the FactConsolidation builder, in membench's
 * own file format (the default list, `edits.json`, is an invented world):
 *
 *   { "facts":  [{ "id", "cloze": "The capital of Caldora is", "answer": "Ressa",
 *                  "edits": ["Lunhaven"], "question": "What is the capital of Caldora?",
 *                  "aliases"?: ["…"] }],
 *     "chains": [{ "id", "question": "…of the head of state of Caldora?", "hops": ["head-caldora", "citizen-jasko"] }] }
 *
 * A fact's sentence is `cloze + " " + value + "."` (the release's form); its
 * values in order are the answer then each edit, so the newest value is the
 * last. A chain's hops are facts whose cloze names the newest value of the
 * hop before, so a multi-hop question is answered by following the newest
 * facts (an outdated hop leads somewhere else).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { ConfigError } from "../../core/errors.ts";
import { assetPath } from "../../util/paths.ts";

export const DEFAULT_EDITS = assetPath("synth", "memoryagentbench", "edits.json");

const factSchema = z.object({
  id: z.string().min(1),
  cloze: z.string().min(1),
  answer: z.string().min(1),
  edits: z.array(z.string().min(1)).default([]),
  question: z.string().min(1).optional(),
  aliases: z.array(z.string().min(1)).optional(),
});

const listSchema = z.object({
  facts: z.array(factSchema).min(1),
  chains: z
    .array(z.object({ id: z.string().min(1), question: z.string().min(1), hops: z.array(z.string()).min(2) }))
    .default([]),
});

export type EditFact = z.infer<typeof factSchema>;
export type EditList = z.infer<typeof listSchema>;

/** The newest value of a fact: its last edit, or its answer. */
export function newest(fact: EditFact): string {
  return fact.edits.at(-1) ?? fact.answer;
}

/** Problems that make a list unusable: duplicate ids or clozes, unknown hops, hops that do not chain. */
export function listProblems(list: EditList): string[] {
  const problems: string[] = [];
  const byId = new Map<string, EditFact>();
  const clozes = new Set<string>();
  for (const f of list.facts) {
    if (byId.has(f.id)) problems.push(`fact id "${f.id}" appears twice`);
    if (clozes.has(f.cloze)) problems.push(`cloze "${f.cloze}" appears twice (merge its values into one fact's edits)`);
    byId.set(f.id, f);
    clozes.add(f.cloze);
    const values = [f.answer, ...f.edits];
    if (new Set(values).size !== values.length) problems.push(`fact "${f.id}" repeats a value: an edit must change it`);
  }
  for (const c of list.chains) {
    c.hops.forEach((id, i) => {
      const fact = byId.get(id);
      if (!fact) {
        problems.push(`chain "${c.id}" hop ${i + 1}: no fact "${id}"`);
        return;
      }
      const previous = i > 0 ? byId.get(c.hops[i - 1] as string) : undefined;
      if (previous && !fact.cloze.includes(newest(previous))) {
        problems.push(
          `chain "${c.id}" hop ${i + 1}: "${fact.cloze}" is not about "${newest(previous)}", the newest value of hop ${i}`,
        );
      }
    });
  }
  return problems;
}

export function loadEdits(path?: string): EditList {
  const file = path ?? DEFAULT_EDITS;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ConfigError(
      `cannot read the edit list ${file}: ${(error as Error).message}`,
      "knob edits",
      "--knob edits",
    );
  }
  const parsed = listSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${file}: ${issue?.path.join(".")}: ${issue?.message}`, "knob edits", "--knob edits");
  }
  const problems = listProblems(parsed.data);
  if (problems.length) throw new ConfigError(`${file}: ${problems.join("; ")}`, "knob edits", "--knob edits");
  return parsed.data;
}
