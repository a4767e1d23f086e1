/**
 * The embedding cache across systems and runs, through the real run path: the
 * `openai:` embedder against the local stub, so every text that reaches a model is
 * an input of a request the stub records (the process boundary).
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { startRun } from "../../src/run/runner.ts";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.ts";
import { fixture } from "../support/shared-data.ts";

const tmp = mkdtempSync(join(tmpdir(), "membench-embed-reuse-"));
const PERSONA = "Mira_Sato_dialogues_256k.json";
let stub: OpenAIStub;
let data: string;
let turns: string[];
let runs = 0;

/** The RealMem fixture with one assistant turn made longer than 2,000 characters, as many in the release are. */
async function writeData(): Promise<void> {
  data = join(tmp, "realmem");
  cpSync(fixture("realmem"), data, { recursive: true });
  const file = join(data, PERSONA);
  const persona = JSON.parse(readFileSync(file, "utf8")) as {
    dialogues: Array<{ dialogue_turns: Array<{ speaker: string; content: string }> }>;
  };
  const turn = persona.dialogues[0]!.dialogue_turns.find((t) => t.speaker === "Assistant")!;
  turn.content += " Here is the full twelve-week plan, week by week.".repeat(50);
  assert.ok(turn.content.length > 2000);
  writeFileSync(file, JSON.stringify(persona));
}

/** The texts sent to the model during `f`. */
async function embedded(f: () => Promise<unknown>): Promise<string[]> {
  const before = stub.embeddingRequests.length;
  await f();
  return stub.embeddingRequests.slice(before).flatMap((r) => (r.body as { input: string[] }).input);
}

function run(systems: string[], cacheDir: string) {
  process.env.MEMBENCH_CACHE_DIR = cacheDir;
  return startRun({
    benchmark: "realmem",
    data,
    systems,
    out: join(tmp, "runs"),
    id: `r${++runs}`,
    progress: false,
    embedder: "openai:stub-embed",
    concurrency: 2,
  });
}

describe("embedding reuse across systems and runs", () => {
  before(async () => {
    stub = await startOpenAIStub({ latencyMs: 20 });
    process.env.MEMBENCH_EMBED_BASE_URL = stub.url;
    await writeData();
    const dataset = await loadDataset("realmem", data);
    turns = dataset.episodes.flatMap((e) => e.sessions.flatMap((s) => s.turns.map((t) => t.content)));
    assert.ok(turns.some((t) => t.length > 2000));
  });
  after(async () => {
    delete process.env.MEMBENCH_EMBED_BASE_URL;
    delete process.env.MEMBENCH_CACHE_DIR;
    await stub.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("two embedding systems replayed together embed each text once", async () => {
    const sent = await embedded(() => run(["dense", "hybrid"], join(tmp, "together")));
    assert.equal(new Set(sent).size, sent.length, "no text reached the model twice");
    for (const t of turns) assert.ok(sent.includes(t), `turn not embedded: ${t.slice(0, 40)}`);
  });

  it("dense, then hybrid, then ledger: no text is embedded again, and a whole second run embeds nothing", async () => {
    const cache = join(tmp, "sequence");
    const dense = await embedded(() => run(["dense"], cache));
    assert.ok(dense.length >= turns.length);
    assert.deepEqual(await embedded(() => run(["hybrid"], cache)), [], "hybrid reuses every vector of dense");
    const ledger = await embedded(() => run(["ledger"], cache));
    // The ledger embeds the same turns and queries as dense (its memories are texts of its own).
    const again = ledger.filter((t) => dense.includes(t));
    // A memory may be a turn's first sentence; only a cut turn is a prefix this long.
    const cut = ledger.filter((t) => t.length > 1000 && turns.some((turn) => turn !== t && turn.startsWith(t)));
    assert.deepEqual(again, [], "the ledger embedded texts dense had already embedded");
    assert.deepEqual(cut, [], "the ledger embedded a shortened turn instead of the turn");
    for (const systems of [["dense"], ["hybrid"], ["ledger"], ["dense", "hybrid", "ledger"]]) {
      assert.deepEqual(await embedded(() => run(systems, cache)), [], `second run of ${systems.join(", ")}`);
    }
  });
});
