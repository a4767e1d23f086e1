/**
 * The LLM side of the ledger, used only when a model is configured: an extractor
 * that asks for memories as structured output, and a relation proposer. The
 * proposer only names the relation; resolve.ts applies it with interval logic.
 */
import { z } from "zod";
import { structured } from "../../llm/structured.ts";
import type { ChatModel } from "../../llm/types.ts";
import { type RelationProposer, settledRelation } from "../resolve.ts";
import type { Memory, MemoryDraft, Relation } from "../types.ts";
import { isInvariant } from "./attributes.ts";
import type { ExtractionInput, Extractor } from "./types.ts";

const KINDS = ["fact", "preference", "event", "plan", "schedule", "project"] as const;

const DraftSchema = z.object({
  memories: z.array(
    z.object({
      subject: z.string().describe('"user", or the lowercased name or relation of another person'),
      kind: z.enum(KINDS),
      attribute: z.string().describe('a short stable key, e.g. "residence", "preference:coffee", "project:itinerary"'),
      value: z.string(),
      condition: z.string().nullable().describe("the circumstance a preference holds under, or null"),
      text: z.string().describe("one self-contained sentence"),
      validFrom: z.string().nullable().describe("ISO date it became true, resolved against the session date, or null"),
      validTo: z.string().nullable(),
      turnIds: z.array(z.string()),
      negated: z.boolean(),
    }),
  ),
});

const EXTRACT_PROMPT = `You extract long-term memories from a conversation session.
Write one memory per atomic fact about the user or a named other person: facts, preferences (with the condition they hold under), events, plans, schedules and project state.
Attribute keys are short and stable so a later change of the same thing gets the same key.
Resolve relative dates against the session date. Never attribute another person's fact to the user. Skip small talk and general knowledge.`;

export class LlmExtractor implements Extractor {
  readonly id: string;

  constructor(private readonly model: ChatModel) {
    this.id = `llm:${model.id}`;
  }

  async extract(input: ExtractionInput): Promise<MemoryDraft[]> {
    const transcript = input.turns.map((t) => `[${t.id}] ${t.speaker ?? t.role}: ${t.content}`).join("\n");
    const { value } = await structured(
      this.model,
      {
        role: "extractor",
        temperature: 0,
        messages: [
          { role: "system", content: EXTRACT_PROMPT },
          { role: "user", content: `Session date: ${input.time ?? "unknown"}\n\n${transcript}` },
        ],
      },
      DraftSchema,
      { name: "ledger_memories" },
    );
    const known = new Set(input.turns.map((t) => t.id));
    return value.memories
      .map((m) => ({ ...m, turnIds: m.turnIds.filter((id) => known.has(id)) }))
      .filter((m) => m.turnIds.length > 0 && m.value.trim() !== "")
      .map((m) => {
        const draft: MemoryDraft = {
          subject: m.subject.trim().toLowerCase() || "user",
          kind: m.kind,
          attribute: m.attribute.trim().toLowerCase(),
          value: m.value,
          text: m.text,
          turnIds: m.turnIds,
          ...(m.negated ? { negated: true } : {}),
        };
        if (m.condition) draft.condition = m.condition.toLowerCase();
        if (m.validFrom) draft.validFrom = m.validFrom;
        if (m.validTo) draft.validTo = m.validTo;
        return draft;
      });
  }
}

const RELATIONS = ["supersedes", "contradicts", "conditional", "complements"] as const;

/** At most this many old statements in one relation call; a bigger slot takes several. */
const RELATION_BATCH = 12;

function relationSchema(n: number) {
  return z.object({
    relations: z.array(z.enum(RELATIONS)).length(n).describe("one relation per OLD statement, in their order"),
  });
}

function describeMemory(m: Memory): string {
  return `${m.subject} / ${m.attribute} = "${m.value}"${m.condition ? ` (when ${m.condition})` : ""}, said ${m.recordedAt ?? "at an unknown time"}: ${m.text}`;
}

/**
 * Asks the model how a new memory relates to the standing ones of its slot:
 * one call for up to RELATION_BATCH of them. What needs no judgement (another
 * occurrence of an event, a restatement) is settled without asking.
 */
export class LlmRelationProposer implements RelationProposer {
  readonly id: string;

  constructor(private readonly model: ChatModel) {
    this.id = `llm:${model.id}`;
  }

  async propose(existing: readonly Memory[], incoming: Memory): Promise<Relation[]> {
    const settled = existing.map((old) => settledRelation(old, incoming));
    const relations: Relation[] = settled.map((r) => r ?? "supersedes");
    const asked = settled.flatMap((r, i) => (r ? [] : [i]));
    for (let start = 0; start < asked.length; start += RELATION_BATCH) {
      const batch = asked.slice(start, start + RELATION_BATCH);
      const answer = await this.ask(
        batch.map((i) => existing[i]!),
        incoming,
      );
      for (const [j, i] of batch.entries()) relations[i] = answer[j]!;
    }
    return relations;
  }

  private async ask(old: readonly Memory[], incoming: Memory): Promise<Relation[]> {
    const invariant = isInvariant(incoming.attribute) ? " (this attribute is invariant)" : "";
    const { value } = await structured(
      this.model,
      {
        role: "extractor",
        temperature: 0,
        messages: [
          {
            role: "system",
            content: `Statements about the same subject and attribute. For each OLD statement, in order, answer how the NEW one relates to it:
supersedes = a real change over time; contradicts = both cannot be true and the attribute does not change over a life${invariant}; conditional = both hold under different conditions; complements = a restatement or addition.`,
          },
          {
            role: "user",
            content: `${old.map((m, i) => `OLD ${i + 1}: ${describeMemory(m)}`).join("\n")}\nNEW: ${describeMemory(incoming)}`,
          },
        ],
      },
      relationSchema(old.length),
      { name: "ledger_relations" },
    );
    return value.relations;
  }
}
