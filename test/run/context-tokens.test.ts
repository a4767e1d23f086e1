/**
 * numberedContext counts each memory's header and text apart, memoised by
 * content: its contexts must be exactly those of counting every part whole,
 * on real texts and on texts that start where o200k's pieces could merge.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { numberedContext, renderSession } from "../../src/benchmarks/shared/protocol.ts";
import type { Session } from "../../src/core/model.ts";
import type { Retrieved } from "../../src/systems/types.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";

/** The context as built before the memo: every part counted whole. */
function reference(items: readonly Retrieved[], maxItems: number, maxTokens: number) {
  const parts: string[] = [];
  let tokens = 0;
  let used = 0;
  for (const item of items.slice(0, maxItems)) {
    const dated = item.time && item.kind !== "session" ? `(${item.time}) ${item.text}` : item.text;
    const part = `---- memory ${used + 1} ----\n${dated}`;
    const n = countTokens(part) + 1;
    if (tokens + n > maxTokens) break;
    parts.push(part);
    tokens += n;
    used++;
  }
  return { text: parts.join("\n\n"), tokens, used };
}

/** Texts whose first characters sit at o200k's piece boundaries. */
const EDGES = [
  "",
  "/usr/bin and more",
  "//comment",
  "\nleading newline",
  "\r\nwindows line",
  "\n\n\nthree newlines",
  " leading space",
  "\t\ntab then newline",
  "   \n spaces then newline",
  "----- dashes",
  "--\n--",
  "'s a contraction",
  "123456 digits",
  "😀 emoji first",
  "Ünïcödé words",
  "ALLCAPS words",
  ". a dot",
  "!?/ punctuation then slash",
  "trailing newline\n",
  "trailing spaces   ",
];

/** Every item ranked at several places, as a run's probes see them. */
function rotations(texts: readonly string[], times: Array<string | undefined>): Retrieved[][] {
  const lists: Retrieved[][] = [];
  for (let shift = 0; shift < 5; shift++) {
    lists.push(
      texts.map((_, i) => {
        const j = (i + shift * 7) % texts.length;
        return { text: texts[j]!, score: 1, time: times[j % times.length], kind: j % 3 ? "turn" : "memory" };
      }),
    );
  }
  return lists;
}

function assertSame(lists: Retrieved[][], maxItems: number, maxTokens: number): void {
  for (const items of lists) {
    // Twice: the second pass reads the memo.
    for (let pass = 0; pass < 2; pass++) {
      assert.deepEqual(numberedContext(items, maxItems, maxTokens), reference(items, maxItems, maxTokens));
    }
  }
}

async function texts(bench: string, path: string): Promise<{ turns: string[]; sessions: Session[] }> {
  const dataset = await loadDataset(bench, path);
  const sessions = dataset.episodes.flatMap((e) => e.sessions);
  return { turns: sessions.flatMap((s) => s.turns.map((t) => t.content)), sessions };
}

describe("numberedContext counts header and text apart, memoised", () => {
  it("builds the same contexts as counting each part whole, on texts at o200k's piece boundaries", () => {
    const lists = rotations(EDGES, [undefined, "2024-05-01", "/2024", "\n"]);
    assertSame(lists, 20, 1_000_000);
    // Budgets that cut the list at every place.
    for (const budget of [1, 5, 12, 40, 90, 160]) assertSame(lists, 20, budget);
  });

  it("builds the same contexts as counting each part whole, on the RealMem fixture's turns and sessions", async () => {
    const { turns, sessions } = await texts("realmem", fixture("realmem"));
    assertSame(rotations(turns, [undefined, "2025-01-02"]), 20, 32_000);
    const rendered = sessions.map(renderSession);
    assertSame(rotations(rendered, [undefined]), 5, 32_000);
    assertSame(rotations(rendered, [undefined]), 5, 2_000);
  });

  const persona = sharedDataset("realmem");
  it("builds the same contexts on the shared RealMem persona", { skip: skipUnless(persona) }, async () => {
    const { turns, sessions } = await texts("realmem", persona!);
    assertSame(rotations(turns, [undefined, "2025-01-02"]), 20, 32_000);
    assertSame(rotations(sessions.map(renderSession), [undefined]), 5, 32_000);
  });
});
