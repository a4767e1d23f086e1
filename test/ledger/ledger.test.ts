import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createEmbedder } from "../../src/embed/create.ts";
import { buildContext } from "../../src/ledger/context.ts";
import { LedgerConflictError } from "../../src/ledger/errors.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import type { LedgerTurn, Memory } from "../../src/ledger/types.ts";

let seq = 0;
function session(id: string, time: string, ...lines: string[]) {
  const turns: LedgerTurn[] = lines.map((content) => ({ id: `${id}#${seq++}`, role: "user", content }));
  return { sessionId: id, time, turns };
}

async function ledger(): Promise<Ledger> {
  return new Ledger({ embedder: await createEmbedder("hashing:256") });
}

function only(memories: Memory[], attribute: string, subject = "user"): Memory[] {
  return memories.filter((m) => m.attribute === attribute && m.subject === subject);
}

describe("ledger resolution", () => {
  it("a real change supersedes the old value, closing it at the new valid-from", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-01-10", "I live in Boston."));
    // Told on 2024-06-20 about a move two months before: valid-from and recording time differ.
    await l.add("a", session("s2", "2024-06-20", "I moved to Denver two months ago."));
    const [boston, denver] = only(l.export("a").memories, "residence");
    assert.equal(denver?.value, "Denver");
    assert.equal(denver?.status, "active");
    assert.equal(denver?.validFrom, "2024-04-21T00:00:00.000Z");
    assert.equal(denver?.recordedAt, "2024-06-20T00:00:00.000Z");
    assert.equal(boston?.value, "Boston");
    assert.equal(boston?.status, "superseded");
    assert.equal(boston?.validTo, "2024-04-21T00:00:00.000Z", "closed when Denver began, not when it was told");
    assert.equal(boston?.retiredAt, "2024-06-20T00:00:00.000Z");
    assert.deepEqual(l.links("a", denver!.id), [{ from: denver!.id, to: boston!.id, relation: "supersedes" }]);
  });

  it("a changed preference (no longer liking something) supersedes it", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-01-10", "I love coffee."));
    await l.add("a", session("s2", "2024-03-10", "I no longer like coffee."));
    const [before, after] = only(l.export("a").memories, "preference:coffee");
    assert.equal(before?.status, "superseded");
    assert.equal(after?.value, "not coffee");
    assert.equal(after?.status, "active");
  });

  it("a preference that ended supersedes that value only, not another under the same key", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-01-10", "I love experimental music."));
    await l.add("a", session("s2", "2024-03-10", "I used to love experimental music, but it's too harsh for me."));
    assert.deepEqual(
      only(l.export("a").memories, "preference:music").map((m) => [m.value, m.status]),
      [
        ["experimental music", "superseded"],
        ["not experimental music", "active"],
      ],
    );
    await l.add("b", session("s1", "2024-01-10", "I love jazz music."));
    await l.add("b", session("s2", "2024-03-10", "I used to love experimental music, but it's too harsh for me."));
    const music = only(l.export("b").memories, "preference:music");
    assert.deepEqual(
      music.map((m) => [m.value, m.status]),
      [
        ["jazz music", "active"],
        ["not experimental music", "active"],
      ],
    );
    assert.equal(l.links("b", music[1]!.id)[0]?.relation, "complements");
  });

  it("purchases add up: a second expense on the same item leaves the first standing", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-01-10", "I spent $3.41 on coffee this morning."));
    await l.add("a", session("s2", "2024-01-11", "I spent $7.35 on coffee today."));
    const coffee = only(l.export("a").memories, "expense:coffee");
    assert.deepEqual(
      coffee.map((m) => [m.value, m.status]),
      [
        ["$3.41 on coffee", "active"],
        ["$7.35 on coffee", "active"],
      ],
    );
    assert.equal(l.links("a", coffee[1]!.id)[0]?.relation, "complements");
    assert.deepEqual(
      l.current("a", "user", "expense:coffee").map((m) => m.value),
      ["$3.41 on coffee", "$7.35 on coffee"],
      "the standing entries are every purchase, for a total",
    );
  });

  it("a different value of an invariant attribute contradicts it: both kept, the first canonical", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-01-10", "I was born in Oslo."));
    await l.add("a", session("s2", "2024-05-10", "I was born in Bergen."));
    const [oslo, bergen] = only(l.export("a").memories, "birthplace");
    assert.equal(oslo?.status, "active");
    assert.equal(oslo?.canonical, true);
    assert.equal(bergen?.status, "contested");
    assert.equal(bergen?.canonical, false);
    assert.deepEqual(l.links("a", bergen!.id), [{ from: bergen!.id, to: oslo!.id, relation: "contradicts" }]);
    assert.deepEqual(
      l.current("a", "user", "birthplace").map((m) => m.value),
      ["Oslo", "Bergen"],
      "both sides stand, the canonical first",
    );
  });

  it("a contested value never becomes canonical by repetition", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-01-10", "I was born in Oslo."));
    await l.add("a", session("s2", "2024-05-10", "I was born in Bergen."));
    await l.add("a", session("s3", "2024-07-10", "I was born in Bergen."));
    const [oslo, bergen, again] = only(l.export("a").memories, "birthplace");
    assert.deepEqual(
      [oslo, bergen, again].map((m) => [m?.value, m?.status, m?.canonical]),
      [
        ["Oslo", "active", true],
        ["Bergen", "contested", false],
        ["Bergen", "contested", false],
      ],
      "said twice, Bergen still contests Oslo",
    );
    assert.deepEqual(l.links("a", again!.id), [{ from: again!.id, to: oslo!.id, relation: "contradicts" }]);
    assert.deepEqual(
      l.current("a", "user", "birthplace").map((m) => m.value),
      ["Oslo", "Bergen", "Bergen"],
    );
  });

  it("the canonical value restated after a contradiction stays canonical", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-01-10", "I was born in Oslo."));
    await l.add("a", session("s2", "2024-05-10", "I was born in Bergen."));
    await l.add("a", session("s3", "2024-07-10", "I was born in Oslo."));
    const [oslo, bergen, again] = only(l.export("a").memories, "birthplace");
    assert.deepEqual(
      [oslo, bergen, again].map((m) => [m?.value, m?.status, m?.canonical]),
      [
        ["Oslo", "active", true],
        ["Bergen", "contested", false],
        ["Oslo", "active", true],
      ],
    );
    // A restatement of Oslo, not a contradiction of it; Bergen's conflict with Oslo is on record already.
    assert.deepEqual(l.links("a", again!.id), [{ from: again!.id, to: oslo!.id, relation: "complements" }]);
    assert.deepEqual(
      l.current("a", "user", "birthplace").map((m) => m.value),
      ["Oslo", "Oslo", "Bergen"],
    );
  });

  it("different conditions keep both preferences valid", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-01-10", "On weekends I enjoy green tea."));
    await l.add("a", session("s2", "2024-02-10", "In the morning I enjoy black tea."));
    const prefs = only(l.export("a").memories, "preference:tea");
    assert.deepEqual(
      prefs.map((m) => [m.condition, m.status]),
      [
        ["on weekends", "active"],
        ["in the morning", "active"],
      ],
    );
    assert.equal(l.links("a", prefs[1]!.id)[0]?.relation, "conditional");
  });

  it("a restatement complements the earlier statement", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-01-10", "I love sushi."));
    await l.add("a", session("s2", "2024-02-10", "I really love sushi."));
    const [first, again] = only(l.export("a").memories, "preference:sushi");
    assert.equal(first?.status, "active");
    assert.equal(again?.status, "active");
    assert.equal(l.links("a", again!.id)[0]?.relation, "complements");
  });

  it("another person's fact is not attributed to the user and does not touch the user's value", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-01-10", "I live in Boston."));
    await l.add("a", session("s2", "2024-02-10", "My sister lives in Paris."));
    const memories = l.export("a").memories;
    assert.deepEqual(
      only(memories, "residence").map((m) => [m.value, m.status]),
      [["Boston", "active"]],
    );
    assert.deepEqual(
      only(memories, "residence", "sister").map((m) => m.value),
      ["Paris"],
    );
    assert.deepEqual(l.links("a", only(memories, "residence")[0]!.id), []);
  });

  it("a value told late about an earlier time is filed as the older version", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-06-01", "I live in Denver."));
    await l.add("a", session("s2", "2024-07-01", "I moved to Austin three months ago."));
    const [denver, austin] = only(l.export("a").memories, "residence");
    // Austin's valid-from (about 2024-04-02) precedes Denver's, so Denver stays current.
    assert.equal(denver?.status, "active");
    assert.equal(austin?.status, "superseded");
    assert.equal(austin?.validTo, denver?.validFrom);
  });
});

describe("ledger timelines", () => {
  async function moves(): Promise<Ledger> {
    const l = await ledger();
    await l.add("a", session("s1", "2023-01-05", "I live in Boston."));
    await l.add("a", session("s2", "2023-08-01", "I moved to Denver."));
    await l.add("a", session("s3", "2024-02-01", "I moved to Austin."));
    return l;
  }

  it("history returns every version, oldest first", async () => {
    const l = await moves();
    const austin = only(l.export("a").memories, "residence").at(-1)!;
    assert.deepEqual(
      l.history("a", austin.id).map((m) => [m.value, m.status]),
      [
        ["Boston", "superseded"],
        ["Denver", "superseded"],
        ["Austin", "active"],
      ],
    );
  });

  it("`at` returns the value valid then", async () => {
    const l = await moves();
    assert.deepEqual(
      l.current("a", "user", "residence", "2023-05-01").map((m) => m.value),
      ["Boston"],
    );
    assert.deepEqual(
      l.current("a", "user", "residence", "2023-12-31").map((m) => m.value),
      ["Denver"],
    );
    assert.deepEqual(
      l.current("a", "user", "residence").map((m) => m.value),
      ["Austin"],
    );
    // Before anything was said, nothing was known.
    assert.deepEqual(l.current("a", "user", "residence", "2022-01-01"), []);
  });

  it("search at a time ranks the memory valid then above its successor", async () => {
    const l = await moves();
    const memoriesAt = async (at: string) =>
      (await l.search("a", "moved live Boston Denver Austin", { k: 5, at })).flatMap((h) =>
        h.memories.map((m) => m.value),
      );
    const early = await memoriesAt("2023-05-01");
    assert.equal(early[0], "Boston");
    assert.ok(!early.includes("Austin"), "a memory recorded after the question time is not shown");
    const late = await memoriesAt("2024-06-01");
    assert.equal(late[0], "Austin");
  });

  it("forgetting hides a memory from search but not from history", async () => {
    const l = await moves();
    const denver = only(l.export("a").memories, "residence").find((m) => m.value === "Denver")!;
    const seen = async () => (await l.search("a", "Denver", { k: 5 })).flatMap((h) => h.memories.map((m) => m.id));
    assert.ok((await seen()).includes(denver.id));
    const retired = l.forget("a", denver.id, "2024-03-01");
    assert.equal(retired?.status, "retired");
    assert.ok(!(await seen()).includes(denver.id));
    const history = l.history("a", denver.id);
    assert.equal(history.find((m) => m.id === denver.id)?.status, "retired");
    assert.equal(history.length, 3);
    // The raw turn stays searchable: preservation is not undone by forgetting a memory.
    assert.ok((await l.search("a", "Denver", { k: 5 })).some((h) => h.sessionIds.includes("s2")));
  });
});

describe("sibling pulls", () => {
  it("pulls a restatement's session in after the bundle only with pullComplements, and never another event", async () => {
    const found = async (pullComplements: boolean) => {
      const l = new Ledger({ retrieval: { pullComplements, weights: { recency: 0 } } });
      await l.add("a", session("s1", "2024-01-01", "I love gypsy jazz, especially Django records."));
      for (let i = 0; i < 6; i++)
        await l.add(
          "a",
          session(`f${i}`, `2024-01-0${i + 2}`, `The Django web framework release ${i} broke our records table.`),
        );
      await l.add("a", session("s2", "2024-02-01", "Honestly I love gypsy jazz."));
      await l.add("a", session("e1", "2024-02-02", "I spent $4 on coffee."));
      await l.add("a", session("e2", "2024-02-03", "I spent $5 on coffee before the Django meetup."));
      return (await l.search("a", "Django records", { k: 4 })).map((h) => h.sessionIds.join("+"));
    };
    const plain = await found(false);
    assert.equal(plain[0], "s1");
    assert.ok(!plain.includes("s2"), "a restatement is not pulled in by default");
    const pulled = await found(true);
    assert.deepEqual(pulled.slice(0, 2), ["s1", "s2"]);
    // e2 matched on its own; the other coffee (a complementing event) is not pulled in after it.
    assert.ok(pulled.includes("e2") && !pulled.includes("e1"));
  });
});

describe("recurring memories", () => {
  const day = (i: number) => new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10);

  it("another occurrence links to the latest one, so links grow linearly", async () => {
    const l = new Ledger();
    for (let i = 0; i < 40; i++) await l.add("a", session(`e${i}`, day(i), `I spent $${i + 1} on coffee.`));
    for (let i = 0; i < 30; i++) await l.add("a", session(`r${i}`, day(40 + i), "I love sushi."));
    const out = l.export("a");
    const coffee = only(out.memories, "expense:coffee");
    const sushi = only(out.memories, "preference:sushi");
    assert.equal(coffee.length, 40);
    assert.equal(sushi.length, 30);
    const chain = (ms: Memory[]) => ms.slice(1).map((m, i) => ({ from: m.id, to: ms[i]!.id, relation: "complements" }));
    // Every pair linked would be 40·39/2 + 30·29/2 = 1,215 links.
    assert.deepEqual(
      [...out.links].sort((a, b) => a.from.localeCompare(b.from)),
      [...chain(coffee), ...chain(sushi)].sort((a, b) => a.from.localeCompare(b.from)),
    );
    assert.ok(
      coffee.every((m) => m.status === "active"),
      "every purchase still stands",
    );
    // The whole group is one history, reached through the chain.
    assert.deepEqual(
      l.history("a", sushi[0]!.id).map((m) => m.id),
      sushi.map((m) => m.id),
    );
  });

  it("links a new condition to the latest of each group it relates to, not to every member", async () => {
    const l = new Ledger();
    for (let i = 0; i < 5; i++) await l.add("a", session(`w${i}`, day(i), "On weekends I enjoy green tea."));
    await l.add("a", session("m1", day(9), "In the morning I enjoy black tea."));
    const tea = only(l.export("a").memories, "preference:tea");
    const morning = tea.at(-1)!;
    assert.deepEqual(l.links("a", morning.id), [{ from: morning.id, to: tea[4]!.id, relation: "conditional" }]);
  });

  it("a pulled restatement group comes back whole, every earlier restatement with it", async () => {
    const found = async () => {
      const l = new Ledger({ retrieval: { pullComplements: true, weights: { recency: 0 } } });
      await l.add("a", session("s1", "2024-01-01", "I love gypsy jazz, especially Django records."));
      await l.add("a", session("s2", "2024-01-02", "Honestly I love gypsy jazz."));
      for (let i = 0; i < 6; i++)
        await l.add(
          "a",
          session(`f${i}`, `2024-01-1${i}`, `The Django web framework release ${i} broke our records table.`),
        );
      await l.add("a", session("s3", "2024-02-01", "I love gypsy jazz, truly."));
      return (await l.search("a", "Django records", { k: 4 })).map((h) => h.sessionIds.join("+"));
    };
    // s1's own link goes to s2 only (s3 links to s2): s3 is found by walking the chain.
    assert.deepEqual((await found()).slice(0, 3), ["s1", "s2", "s3"]);
  });

  it("a linked condition brings every member of the group its link names", async () => {
    const l = new Ledger({ retrieval: { weights: { recency: 0 } } });
    await l.add("a", session("w1", "2024-01-01", "On weekends I enjoy green tea."));
    await l.add("a", session("w2", "2024-01-02", "On weekends I really enjoy green tea."));
    for (let i = 0; i < 6; i++)
      await l.add("a", session(`f${i}`, `2024-01-1${i}`, `The black cat naps in the morning sun, day ${i}.`));
    await l.add("a", session("m1", "2024-02-01", "In the morning I enjoy black tea, like a cat in the sun."));
    // The query names no tea: w1 and w2 come only as m1's siblings. Its link names w2, the latest of
    // their group; w1 comes with it.
    const hits = (await l.search("a", "black cat morning sun", { k: 4 })).map((h) => h.sessionIds.join("+"));
    assert.deepEqual(hits.slice(0, 3), ["m1", "w1", "w2"]);
  });
});

describe("ledger store", () => {
  it("export then import into another namespace reproduces turns, memories and links", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-01-10", "I live in Boston.", "I love sushi."));
    await l.add("a", session("s2", "2024-06-01", "I just moved to Denver."));
    const out = l.export("a");
    await l.import("b", JSON.parse(JSON.stringify(out)));
    const back = l.export("b");
    assert.deepEqual({ ...back, ns: "a", memories: back.memories.map((m) => ({ ...m, ns: "a" })) }, out);
    const hits = await l.search("b", "Denver", { k: 3 });
    assert.deepEqual(hits[0]?.sessionIds, ["s2"]);
    await assert.rejects(l.import("b", out), /not empty/);
  });

  it("hides a namespace while it is imported, and drops an import cut short when the store is next opened", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ledger-import-"));
    try {
      const path = join(dir, "store.sqlite");
      const source = new Ledger();
      await source.add("a", session("s1", "2024-01-10", "I live in Boston."));
      await source.add("a", session("s2", "2024-02-10", "I love sushi."));
      const data = source.export("a");
      const l = new Ledger({ path });
      let release: (error: Error) => void = () => undefined;
      const stopped = new Promise<never>((_, reject) => {
        release = reject;
      });
      let halfway: () => void = () => undefined;
      const reached = new Promise<void>((resolve) => {
        halfway = resolve;
      });
      async function* parts() {
        yield { sessions: data.sessions };
        yield { turns: data.turns };
        halfway();
        await stopped;
      }
      const importing = l.importParts("b", parts());
      await reached;
      assert.equal(l.store.sessions("b").length, 2, "the first parts are written");
      assert.equal(l.has("b"), false);
      assert.deepEqual(l.namespaces(), []);
      assert.deepEqual(await l.search("b", "Boston"), []);
      // Opened again while this process imports: the import is left alone.
      const meanwhile = new Ledger({ path });
      assert.equal(meanwhile.store.sessions("b").length, 2);
      // The process stops here: the next opening finds its import unfinished and drops it.
      const gone = spawnSync(process.execPath, ["-e", ""]).pid!;
      meanwhile.store.db
        .prepare("UPDATE meta SET value = ? WHERE key = 'importing:b'")
        .run(JSON.stringify({ pid: gone, process: "an earlier one" }));
      meanwhile.close();
      const reopened = new Ledger({ path });
      assert.equal(reopened.has("b"), false);
      assert.deepEqual(reopened.store.sessions("b"), []);
      assert.deepEqual(reopened.store.unfinishedImports(), []);
      reopened.close();
      release(new Error("stopped"));
      await assert.rejects(importing, /stopped/);
      assert.deepEqual(l.store.sessions("b"), [], "a failed import leaves nothing");
      await l.import("b", data);
      assert.equal(l.has("b"), true);
      assert.deepEqual(
        (await l.search("b", "Boston", { k: 1 })).map((h) => h.sessionIds),
        [["s1"]],
      );
      l.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("namespaces are isolated and a dropped namespace is empty", async () => {
    const l = await ledger();
    assert.equal(l.has("a"), false);
    await l.add("a", session("s1", "2024-01-10", "I live in Boston."));
    await l.add("b", session("s9", "2024-01-10", "I live in Lisbon."));
    assert.deepEqual(
      (await l.search("a", "live Lisbon Boston", { k: 5 })).flatMap((h) => h.sessionIds),
      ["s1"],
    );
    assert.deepEqual(l.namespaces(), ["a", "b"]);
    l.drop("a");
    assert.deepEqual(l.namespaces(), ["b"]);
    assert.deepEqual(await l.search("a", "Boston", { k: 5 }), []);
    assert.equal((await l.search("b", "Lisbon", { k: 5 }))[0]?.sessionIds[0], "s9");
  });

  it("a store reopened with another embedder is refused by name; without one it searches lexically", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ledger-embedder-"));
    const path = join(dir, "store.sqlite");
    try {
      const first = new Ledger({ path, embedder: await createEmbedder("hashing:64") });
      await first.add("a", session("s1", "2024-01-10", "I live in Oslo."));
      first.close();
      const other = new Ledger({ path, embedder: await createEmbedder("hashing:128") });
      await assert.rejects(
        other.search("a", "Oslo", { k: 1 }),
        (e: unknown) => e instanceof LedgerConflictError && /holds hashing:64 vectors.*hashing:128/.test(e.message),
      );
      await assert.rejects(other.add("a", session("s2", "2024-01-11", "I live in Bergen.")), LedgerConflictError);
      other.close();
      const lexical = new Ledger({ path });
      assert.deepEqual((await lexical.search("a", "Oslo", { k: 1 }))[0]?.sessionIds, ["s1"]);
      lexical.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a session that repeats a turn id, writing nothing", async () => {
    const l = await ledger();
    const turns: LedgerTurn[] = [
      { id: "t1", role: "user", content: "I live in Oslo." },
      { id: "t1", role: "user", content: "I live in Bergen." },
    ];
    await assert.rejects(l.add("a", { sessionId: "s1", turns }), /duplicate turn id "t1"/);
    assert.deepEqual(l.export("a").turns, []);
  });

  it("a session written in parts, one turn re-sent reworded, searches as it does once rebuilt from the store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ledger-parts-"));
    try {
      const embedder = await createEmbedder("hashing:64");
      const turn = (id: string, content: string, speaker?: string) => ({
        id,
        role: "user" as const,
        content,
        ...(speaker ? { speaker } : {}),
      });
      const queries = ["Boston", "harbor chowder", "where do I live? Denver mountains", "sister nurse"];
      const ranked = async (ledger: Ledger) =>
        Promise.all(
          queries.map(async (q) => (await ledger.search("a", q, { k: 5 })).map((h) => [h.sessionIds, h.score, h.text])),
        );
      // Each list alone (session transcripts, session centroids), then all of them.
      const none = {
        sessionLexical: 0,
        sessionVector: 0,
        turnLexical: 0,
        turnVector: 0,
        memoryLexical: 0,
        recency: 0,
        feedback: 0,
        lexicalFeedback: 0,
        turnVectorVote: 0,
      };
      for (const [i, weights] of [{ ...none, sessionLexical: 1 }, { ...none, sessionVector: 1 }, {}].entries()) {
        const path = join(dir, `store-${i}.sqlite`);
        const l = new Ledger({ path, embedder, retrieval: { weights } });
        await l.add("a", {
          sessionId: "p",
          time: "2024-01-10",
          turns: [turn("p1", "I live in Boston by the harbor.")],
        });
        await l.add("a", {
          sessionId: "q",
          time: "2024-01-11",
          turns: [turn("q1", "Harbor cruises leave from Boston.")],
        });
        await l.add("a", {
          sessionId: "p",
          turns: [turn("p2", "My sister Ana works as a nurse."), turn("p3", "We ate chowder at the harbor.", "Sam")],
        });
        await l.add("a", { sessionId: "p", turns: [turn("p1", "I live in Denver by the mountains.")] });
        // Kept up by the writes, then built from the store on first use.
        const written = await ranked(l);
        l.close();
        const reopened = new Ledger({ path, embedder, retrieval: { weights } });
        assert.deepEqual(written, await ranked(reopened), JSON.stringify(weights));
        reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("re-adding the same turns replaces them instead of duplicating", async () => {
    const l = await ledger();
    const s = session("s1", "2024-01-10", "I live in Boston.");
    await l.add("a", s);
    await l.add("a", s);
    const out = l.export("a");
    assert.equal(out.turns.length, 1);
    assert.equal(out.memories.length, 1);
  });

  it("a re-sent turn's stored vector is replaced by its new wording's", async () => {
    const embedder = await createEmbedder("hashing:256");
    const l = new Ledger({ embedder });
    const s = session("s1", "2024-01-10", "Thinking about pasta recipes tonight.");
    await l.add("a", s);
    const changed = "Thinking about sushi rolls tonight.";
    await l.add("a", { ...s, turns: [{ ...s.turns[0]!, content: changed }] });
    const stored = l.store.vectors("a", "turns");
    assert.equal(stored.length, 1);
    const [expected] = await embedder.embed([changed]);
    assert.deepEqual([...stored[0]!.vector], [...expected!]);
  });

  it("keeps near-duplicate bundles out of the top k", async () => {
    const l = await ledger();
    const text = "Miso the cat only eats the salmon kibble from the corner shop.";
    await l.add("a", session("s1", "2024-01-10", text));
    await l.add("a", session("s2", "2024-01-11", text));
    await l.add("a", session("s3", "2024-01-12", "Miso the cat hid under the bed during the storm."));
    const hits = await l.search("a", "Miso cat salmon kibble", { k: 3 });
    const ids = hits.flatMap((h) => h.sessionIds);
    // One copy of the repeated session, and the other session about the cat.
    assert.equal(ids.filter((id) => id === "s1" || id === "s2").length, 1);
    assert.ok(ids.includes("s3"));
  });

  it("a re-sent turn with new wording is found by its new wording only", async () => {
    const l = new Ledger(); // lexical only, so nothing but the words can match
    const s = session("s1", "2024-01-10", "Thinking about pasta recipes tonight.");
    await l.add("a", s);
    await l.add("a", { ...s, turns: [{ ...s.turns[0]!, content: "Thinking about sushi rolls tonight." }] });
    assert.deepEqual((await l.search("a", "sushi", { k: 1 }))[0]?.sessionIds, ["s1"]);
    assert.deepEqual(await l.search("a", "pasta", { k: 1 }), []);
  });

  it("finds raw turns and memories by exact wording through FTS5", async () => {
    const l = new Ledger();
    await l.add(
      "a",
      session("s1", "2024-01-10", "The blue heron flew past the dock.", "A heron, blue as slate, stood still."),
    );
    await l.add("a", session("s2", "2024-01-11", "I live in Boston."));
    const phrase = l.findTurns("a", '"blue heron"');
    assert.deepEqual(
      phrase.map((t) => t.content),
      ["The blue heron flew past the dock."],
    );
    assert.equal(l.findTurns("a", "heron AND slate").length, 1);
    assert.equal(l.findTurns("a", "her*").length, 2);
    assert.deepEqual(
      l.findMemories("a", "boston").map((m) => m.sessionId),
      ["s2"],
    );
    assert.throws(() => l.findTurns("a", '"unclosed'), /invalid full-text query "\\"unclosed"/);
  });

  it("works without an embedder (lexical only)", async () => {
    const l = new Ledger();
    await l.add("a", session("s1", "2024-01-10", "I live in Boston."));
    await l.add("a", session("s2", "2024-01-11", "Thinking about pasta recipes tonight."));
    const hits = await l.search("a", "pasta", { k: 2 });
    assert.deepEqual(hits[0]?.sessionIds, ["s2"]);
  });

  it("a bundle shows the turns next to the one that matched, and only those", async () => {
    const l = new Ledger();
    await l.add(
      "a",
      session(
        "s1",
        "2024-01-10",
        "Morning run done.",
        "Where did you end up going for the anniversary dinner?",
        "A tiny place by the harbour, grilled octopus and all.",
        "The weather was grey all week.",
        "Work is busy.",
      ),
    );
    const [hit] = await l.search("a", "anniversary dinner", { k: 1 });
    const shown = new Set(hit?.turnIds);
    const ids = l.export("a").turns.map((t) => t.id);
    // The question matched; its neighbours (the answer and the turn before) come with it.
    assert.ok(shown.has(ids[1]!) && shown.has(ids[2]!) && shown.has(ids[0]!));
    assert.ok(!shown.has(ids[4]!));
  });
});

describe("context", () => {
  it("a sentence read as two memories is one line, each flag naming its attribute", async () => {
    const l = await ledger();
    await l.add("a", session("s1", "2024-03-01", "I live in Berlin now and I love hiking."));
    await l.add("a", session("s2", "2024-06-01", "I moved to Lisbon last week."));
    const [s1] = l.export("a").memories.filter((m) => m.sessionId === "s1" && m.attribute === "residence");
    assert.ok(s1, "residence read off the first sentence");
    assert.ok(
      l.export("a").memories.some((m) => m.sessionId === "s1" && m.attribute !== "residence"),
      "and a second memory from the same sentence",
    );
    const hits = await l.search("a", "where do I live?", { k: 3, at: "2024-07-01" });
    const text = buildContext(hits, { at: "2024-07-01T00:00:00.000Z" }).text;
    assert.equal(text.split("\n").filter((line) => line.startsWith("- I live in Berlin")).length, 1);
    assert.match(text, /- I live in Berlin now and I love hiking\. \[residence: updated on 2024-06-01, now "Lisbon"\]/);
  });
});
