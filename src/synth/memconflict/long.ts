/**
 * The long-history ablation (paper §4.4.2, Fig. 5; upstream
 * `Ablation/Long/Code/build_long_dataset.py`): unrelated but coherent
 * question-and-answer turns are added, inside existing sessions and as new
 * sessions (about half each), until the persona's dialogue reaches the target
 * token count. Conflicts, gold answers and questions do not change; new
 * sessions carry no conflict information and no questions, and every session
 * id and link is renumbered. Upstream draws its filler from LongMemEval
 * histories, ELI5 and generated explainer and maths QA; ours is templated
 * arithmetic and explainer QA (no model), which is enough to dilute the
 * history the way the ablation intends.
 */
import type { Rng } from "../rng.ts";
import type { Dialogue, Message, Persona, Question, Session } from "./model.ts";
import type { Pools } from "./pools.ts";
import { dialogueTokens } from "./release.ts";

export interface LongKnobs {
  targetTokens: number;
  newSessionShare: number;
  turns: [number, number];
}

function fillerPair(rng: Rng, pools: Pools): Message[] {
  if (rng.bool(0.5)) {
    const a = rng.int(12, 999);
    const b = rng.int(3, 99);
    const op = rng.pick(["plus", "times", "minus"]);
    const value = op === "plus" ? a + b : op === "times" ? a * b : a - b;
    const sign = op === "plus" ? "+" : op === "times" ? "×" : "−";
    return [
      { role: "user", content: `Quick maths check: what is ${a} ${op} ${b}?` },
      { role: "assistant", content: `${a} ${sign} ${b} = ${value}. Want me to show the steps?` },
    ];
  }
  const topic = rng.pick(pools.Membench_Extras.Explainer_Topics);
  return [
    { role: "user", content: `Random question: can you explain ${topic}, in simple terms?` },
    {
      role: "assistant",
      content: `Sure. In simple terms, ${topic} comes down to a few basic mechanisms working together; the short version is that small, everyday physical or social effects add up. Happy to go deeper on any part of it.`,
    },
  ];
}

function renumber(pairs: Message[][]): Dialogue {
  const out: Dialogue = {};
  pairs.forEach((p, i) => {
    out[`dialogue_turn_${i + 1}`] = p;
  });
  return out;
}

/**
 * Adds filler to `persona` until its dialogues hold `targetTokens`; returns the
 * questions re-keyed by the new session ids.
 */
export function lengthenHistory(
  rng: Rng,
  pools: Pools,
  persona: Persona,
  questions: Map<number, Question[]>[],
  knobs: LongKnobs,
): Map<number, Question[]>[] {
  const chain = persona.chain;
  let total = chain.reduce((n, s) => n + dialogueTokens(s.Session_Dialogue), 0);
  const added: Array<{ after: number; session: Session }> = [];
  const lastReal = chain.length - 1;
  let guard = 0;
  while (total < knobs.targetTokens && guard++ < 100000) {
    if (rng.bool(knobs.newSessionShare)) {
      // A new session between two existing ones, never after the final future_plan session.
      const after = rng.int(0, Math.max(0, lastReal - 1));
      const n = rng.int(...knobs.turns);
      const pairs = Array.from({ length: n }, () => fillerPair(rng, pools));
      const dialogue = renumber(pairs);
      added.push({
        after,
        session: {
          Session_ID: -1,
          Date: chain[after]?.Date ?? "",
          Session_Type: "chitchat",
          Updated_Attributes: [],
          Static_Conflict_Information: [],
          Conditional_Conflict_Information: [],
          Others_Dynamic_Information: [],
          Event_Types: ["Unrelated_Question_Answering"],
          Session_Outline: "The user asks the assistant a run of unrelated factual and arithmetic questions.",
          Session_Dialogue: dialogue,
          Question_Trigger_Types: [],
        },
      });
      total += dialogueTokens(dialogue);
    } else {
      const session = chain[rng.int(0, lastReal)] as Session;
      const pairs = Object.values(session.Session_Dialogue ?? {});
      const extra = Array.from({ length: rng.int(5, 15) }, () => fillerPair(rng, pools));
      for (const pair of extra) pairs.splice(rng.int(0, pairs.length), 0, pair);
      session.Session_Dialogue = renumber(pairs);
      total += dialogueTokens(renumber(extra));
    }
  }
  // Insert the new sessions and renumber everything, keeping the links consistent.
  const ordered: Session[] = [];
  for (const [i, s] of chain.entries()) {
    ordered.push(s);
    for (const a of added) if (a.after === i) ordered.push(a.session);
  }
  const newId = new Map<number, number>();
  ordered.forEach((s, i) => {
    if (s.Session_ID >= 0) newId.set(s.Session_ID, i);
  });
  const remapped = questions.map((byId) => {
    const out = new Map<number, Question[]>();
    for (const [id, qs] of byId) out.set(newId.get(id) ?? id, qs);
    return out;
  });
  ordered.forEach((s, i) => {
    s.Session_ID = i;
    for (const d of s.Others_Dynamic_Information) {
      d.Linked_Left_Session_ID = newId.get(d.Linked_Left_Session_ID) ?? d.Linked_Left_Session_ID;
      d.Linked_Right_Session_ID = newId.get(d.Linked_Right_Session_ID) ?? d.Linked_Right_Session_ID;
    }
  });
  persona.chain = ordered;
  return remapped;
}
