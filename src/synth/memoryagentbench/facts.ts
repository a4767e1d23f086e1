/**
 * The FactConsolidation builder (MemoryAgentBench's Selective Forgetting
 * datasets, arXiv 2507.05257 App. B.4.2): every fact sentence gets a serial
 * number; within an edit pair the outdated fact gets the smaller number and
 * the new one the larger, so the newer fact always comes later; the sentences
 * are listed in serial order as `Here is a list of facts:\n0. <fact>.\n…`,
 * filled to the target length; single-hop (FC-SH) and multi-hop (FC-MH)
 * questions are answered by the newest facts. SH and MH rows of one length
 * share a byte-identical context, as in the release.
 *
 * Facts come from an edit list (ours by default) plus, optionally, chains of
 * a synthetic invented world (a town's mayor, edited; where that mayor was
 * born; the river there), and filler facts of the same world, half of them
 * edit pairs too, until the context holds the target number of tokens.
 */
import { countTokens } from "../../tokens/count.ts";
import type { Rng } from "../rng.ts";
import type { EditFact, EditList } from "./edits.ts";

export const FC_LENGTHS = { "6k": 6000, "32k": 32768, "64k": 65536, "262k": 262144 } as const;
export type FcLength = keyof typeof FC_LENGTHS;
export const FC_HEADER = "Here is a list of facts:";

export interface FcKnobs {
  length: FcLength;
  /** Questions per row (SH and MH each), at most. */
  questions: number;
  /** Chains of the synthetic world added to the list's. */
  syntheticChains: number;
  /** Chance a synthetic chain's fact is edited (has a newer value). */
  editShare: number;
  /** Chance a filler fact comes as an edit pair. */
  fillerEditShare: number;
}

export interface Hop {
  cloze: string;
  /** The serials of every sentence with this cloze, oldest first. */
  serials: number[];
  /** The newest value. */
  value: string;
}

export interface FcQuestion {
  question: string;
  answers: string[];
  hops: Hop[];
}

export interface FcBuild {
  context: string;
  sh: FcQuestion[];
  mh: FcQuestion[];
  facts: number;
  tokens: number;
}

const SYLLABLES = [
  "ka",
  "lo",
  "ver",
  "mi",
  "dun",
  "sa",
  "rel",
  "tor",
  "bri",
  "va",
  "nes",
  "qui",
  "ost",
  "lan",
  "mar",
  "fen",
  "dor",
  "il",
  "ush",
  "ra",
  "te",
  "gol",
  "pim",
  "arn",
];
const TOWN_ENDINGS = ["holm", "ford", "stad", "by", "wick", "haven"];
const SPORTS = ["archery", "rowing", "handball", "curling", "squash", "fencing", "judo", "polo", "cricket", "skiing"];
const BOOK_WORDS = ["Silver", "Quiet", "Hollow", "Amber", "Paper", "Northern", "Broken", "Distant", "Salt", "Winter"];
const BOOK_NOUNS = [
  "Lantern",
  "Harbour",
  "Garden",
  "Letters",
  "Compass",
  "Bridge",
  "Orchard",
  "Tide",
  "Meadow",
  "Clock",
];

/** Unique invented names that never collide with `taken` (the edit list's text). */
class Names {
  readonly #used = new Set<string>();
  constructor(
    private readonly rng: Rng,
    private readonly taken: string,
  ) {}

  #unique(make: () => string): string {
    for (let attempt = 0; attempt < 10000; attempt++) {
      const name = make();
      if (!this.#used.has(name) && !this.taken.includes(name)) {
        this.#used.add(name);
        return name;
      }
    }
    throw new Error(`ran out of invented names after ${this.#used.size}`);
  }

  #word(n: number): string {
    const w = Array.from({ length: n }, () => this.rng.pick(SYLLABLES)).join("");
    return w.charAt(0).toUpperCase() + w.slice(1);
  }

  person(): string {
    return this.#unique(() => `${this.#word(2)} ${this.#word(this.rng.int(2, 3))}`);
  }
  town(): string {
    return this.#unique(() => `${this.#word(this.rng.int(2, 3))}${this.rng.pick(TOWN_ENDINGS)}`);
  }
  river(): string {
    return this.#unique(() => `the ${this.#word(this.rng.int(2, 3))}`);
  }
  company(): string {
    return this.#unique(
      () => `${this.#word(this.rng.int(2, 3))} ${this.rng.pick(["Works", "Mills", "Labs", "Freight", "Foundry"])}`,
    );
  }
  book(): string {
    return this.#unique(() => `The ${this.rng.pick(BOOK_WORDS)} ${this.rng.pick(BOOK_NOUNS)} of ${this.#word(2)}`);
  }
}

/** A fact as the builder handles it: a cloze and its values, oldest first. */
interface Group {
  cloze: string;
  values: string[];
  question?: string;
  aliases?: string[];
}

interface Chain {
  question: string;
  hops: Group[];
}

function groupOf(f: EditFact): Group {
  return {
    cloze: f.cloze,
    values: [f.answer, ...f.edits],
    ...(f.question ? { question: f.question } : {}),
    ...(f.aliases ? { aliases: f.aliases } : {}),
  };
}

/** One synthetic chain: a town's mayor (maybe replaced), where the newest mayor was born, and that town's river. */
function syntheticChain(rng: Rng, names: Names, editShare: number): { chains: Chain[]; groups: Group[] } {
  const town = names.town();
  const mayors = rng.bool(editShare) ? [names.person(), names.person()] : [names.person()];
  const mayor: Group = { cloze: `The mayor of ${town} is`, values: mayors, question: `Who is the mayor of ${town}?` };
  const now = mayors.at(-1) as string;
  const births = rng.bool(editShare) ? [names.town(), names.town()] : [names.town()];
  const born: Group = { cloze: `${now} was born in`, values: births, question: `Where was ${now} born?` };
  const birthplace = births.at(-1) as string;
  const rivers = rng.bool(editShare) ? [names.river(), names.river()] : [names.river()];
  const river: Group = {
    cloze: `The river flowing through ${birthplace} is`,
    values: rivers,
    question: `Which river flows through ${birthplace}?`,
  };
  const groups = [mayor, born, river];
  // The outdated mayor has a birthplace too: following the old fact leads to a wrong answer.
  if (mayors.length > 1) groups.push({ cloze: `${mayors[0]} was born in`, values: [names.town()] });
  return {
    groups,
    chains: [
      { question: `Where was the mayor of ${town} born?`, hops: [mayor, born] },
      { question: `Which river flows through the birthplace of the mayor of ${town}?`, hops: [mayor, born, river] },
    ],
  };
}

function fillerGroup(rng: Rng, names: Names, editShare: number): Group {
  const two = rng.bool(editShare);
  const values = (make: () => string) => (two ? [make(), make()] : [make()]);
  switch (rng.int(0, 5)) {
    case 0:
      return { cloze: `The mayor of ${names.town()} is`, values: values(() => names.person()) };
    case 1:
      return { cloze: `${names.person()} was born in`, values: values(() => names.town()) };
    case 2:
      return { cloze: `${names.company()} is headquartered in`, values: values(() => names.town()) };
    case 3:
      return { cloze: `The chief executive of ${names.company()} is`, values: values(() => names.person()) };
    case 4:
      return { cloze: `The author of ${names.book()} is`, values: values(() => names.person()) };
    default: {
      const [a, b] = rng.sample(SPORTS, 2) as [string, string];
      return { cloze: `${names.person()} plays`, values: two ? [a, b] : [a] };
    }
  }
}

const sentence = (cloze: string, value: string) => `${cloze} ${value}.`;

/** Builds the shared context and the SH and MH questions. */
export function buildFactConsolidation(rng: Rng, list: EditList, knobs: FcKnobs): FcBuild {
  const listText = JSON.stringify(list);
  const names = new Names(rng.fork("names"), listText);
  const byId = new Map(list.facts.map((f) => [f.id, groupOf(f)]));
  const groups: Group[] = [...byId.values()];
  const chains: Chain[] = list.chains.map((c) => ({
    question: c.question,
    hops: c.hops.map((id) => byId.get(id) as Group),
  }));
  const srng = rng.fork("synthetic");
  for (let i = 0; i < knobs.syntheticChains; i++) {
    const s = syntheticChain(srng, names, knobs.editShare);
    groups.push(...s.groups);
    chains.push(...s.chains);
  }
  // Serial order: every sentence gets a random key; a group's keys are sorted so its values stay oldest first,
  // which makes the merge uniform over the orders that keep each edit pair's old fact before its new one.
  const orng = rng.fork("order");
  const keys = new Map<Group, number[]>();
  const keyed = (g: Group) =>
    keys.set(
      g,
      g.values.map(() => orng.float()).sort((a, b) => a - b),
    );
  for (const g of groups) keyed(g);
  const frng = rng.fork("filler");
  const target = FC_LENGTHS[knobs.length];
  const serials = new Map<Group, number[]>();
  let lines: string[] = [];
  let context = "";
  let tokens = 0;
  // Fill with unrelated facts of the invented world until the numbered list holds the target number of tokens.
  for (let round = 0; round < 20; round++) {
    const items = groups.flatMap((g) =>
      g.values.map((value, j) => ({ key: (keys.get(g) as number[])[j] as number, group: g, value })),
    );
    items.sort((a, b) => a.key - b.key);
    serials.clear();
    lines = items.map((item, n) => {
      serials.set(item.group, [...(serials.get(item.group) ?? []), n]);
      return `${n}. ${sentence(item.group.cloze, item.value)}`;
    });
    context = [FC_HEADER, ...lines].join("\n");
    tokens = countTokens(context);
    if (tokens >= target) break;
    // About three tokens per line besides the sentence (serial, dot, line break); a little over, to finish in few rounds.
    let missing = (target - tokens) * 1.02;
    while (missing > 0) {
      const g = fillerGroup(frng, names, knobs.fillerEditShare);
      groups.push(g);
      keyed(g);
      missing -= g.values.reduce((m, v) => m + countTokens(sentence(g.cloze, v)) + 3, 0);
    }
  }
  const hop = (g: Group): Hop => ({ cloze: g.cloze, serials: serials.get(g) ?? [], value: g.values.at(-1) as string });
  const asked = groups.filter((g) => g.question);
  const sh = rng
    .fork("sh")
    .sample(asked, Math.min(knobs.questions, asked.length))
    .map((g) => ({
      question: g.question as string,
      answers: [g.values.at(-1) as string, ...(g.aliases ?? [])],
      hops: [hop(g)],
    }));
  const mh = rng
    .fork("mh")
    .sample(chains, Math.min(knobs.questions, chains.length))
    .map((c) => {
      const last = c.hops.at(-1) as Group;
      return {
        question: c.question,
        answers: [last.values.at(-1) as string, ...(last.aliases ?? [])],
        hops: c.hops.map(hop),
      };
    });
  return { context, sh, mh, facts: lines.length, tokens };
}
