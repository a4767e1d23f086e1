import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseFlags, tune } from "../../bench/ledger-tune.ts";
import { ConfigError } from "../../src/core/errors.ts";
import { lastUserMessage, type OpenAIStub, type StubChatBody, startOpenAIStub } from "../support/openai-stub.ts";
import { fixture } from "../support/shared-data.ts";

describe("bench/ledger-tune flags", () => {
  it("reads variants, cases and the model flags", () => {
    const flags = parseFlags(["--case", "subtlememory", "--extractor", "llm", "--query-rewrite", "{}", '{"k":1}']);
    assert.deepEqual(flags, {
      heldOut: false,
      baselines: false,
      noVectors: false,
      extractor: "llm",
      queryRewrite: true,
      cases: ["subtlememory"],
      variants: ["{}", '{"k":1}'],
    });
    assert.equal(parseFlags(["--llm", "openai:m"]).llm, "openai:m");
    assert.equal(parseFlags(["--baselines"]).baselines, true);
    assert.equal(parseFlags(["--no-vectors"]).noVectors, true);
  });

  it("names what is wrong with a flag", () => {
    assert.throws(() => parseFlags(["--case", "nope"]), /unknown case "nope"; known: realmem, locomo/);
    assert.throws(() => parseFlags(["--extractor", "rules"]), /--extractor is offline or llm, not "rules"/);
    assert.throws(() => parseFlags(["--llm"]), /--llm needs a value/);
    assert.throws(() => parseFlags(["--fast"]), /unknown flag --fast/);
  });

  it("refuses the LLM paths without a model, naming the flag", async () => {
    await assert.rejects(
      tune(parseFlags(["--case", "subtlememory", "--query-rewrite"]), { print: () => {} }),
      (error: unknown) => error instanceof ConfigError && /--ledger-query-rewrite needs a model/.test(error.message),
    );
  });
});

describe("bench/ledger-tune with a model (over HTTP)", () => {
  let stub: OpenAIStub;
  let cacheDir: string;
  before(async () => {
    cacheDir = mkdtempSync(join(tmpdir(), "ledger-tune-"));
    stub = await startOpenAIStub({
      reply: (body: StubChatBody) => {
        const text = lastUserMessage(body);
        if (text.startsWith("OLD 1:")) {
          const olds = text.split("\n").filter((l) => l.startsWith("OLD ")).length;
          return { relations: Array.from({ length: olds }, () => "complements") };
        }
        const turn = /^\[([^\]]+)\] user: (.{1,60})/m.exec(text);
        if (!turn) return { queries: ["weekend food stop"] };
        // One session's extraction never parses: the bench keeps its turns and counts it.
        if (turn[1]!.includes("ctr-b")) return "no JSON here";
        const memory = { subject: "user", kind: "fact", attribute: "note", value: turn[2], text: turn[2] };
        const rest = { condition: null, validFrom: null, validTo: null, turnIds: [turn[1]], negated: false };
        return { memories: [{ ...memory, ...rest }] };
      },
    });
    Object.assign(process.env, {
      MEMBENCH_BASE_URL: stub.url,
      MEMBENCH_MODEL: "stub-model",
      MEMBENCH_EMBEDDER: "hashing:64",
      MEMBENCH_CACHE_DIR: cacheDir,
    });
  });
  after(async () => {
    for (const key of ["MEMBENCH_BASE_URL", "MEMBENCH_MODEL", "MEMBENCH_EMBEDDER", "MEMBENCH_CACHE_DIR"]) {
      delete process.env[key];
    }
    await stub.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("replays each variant with the LLM extractor and query rewrite, and counts calls and failed sessions", async () => {
    const lines: string[] = [];
    const flags = parseFlags([
      "--case",
      "subtlememory",
      "--extractor",
      "llm",
      "--query-rewrite",
      "{}",
      '{"pullComplements":true}',
    ]);
    await tune(flags, { dataOf: (c) => fixture(c.fixture!), print: (line) => lines.push(line) });
    const out = lines.join("\n");
    assert.match(out, /^model: model stub-model at http:\/\/127\.0\.0\.1:\d+\/v1$/m);
    assert.match(out, /^\| defaults \| \d\.\d{3} \|/m);
    assert.match(out, /^\| \{"pullComplements":true\} \| \d\.\d{3} \|/m);
    // 8 probes: one rewrite each. The second variant gets every call from the cache but the
    // unusable extraction reply and its repair, which are dropped from it and asked again.
    const usage = (label: string) => {
      const line = out.split("\n").find((l) => l.startsWith(`- ${label}: `)) ?? "";
      const m =
        /extractor (\d+) calls \((\d+) cached, 0 failed\); retriever 8 calls \((\d+) cached, 0 failed\); (\d+) sessions kept without memories$/.exec(
          line,
        );
      assert.ok(m, `usage line for ${label}: ${line}`);
      return { calls: Number(m[1]), cached: Number(m[2]), rewritesCached: Number(m[3]), failed: Number(m[4]) };
    };
    const first = usage("defaults");
    const second = usage('{"pullComplements":true}');
    assert.deepEqual([first.cached, first.rewritesCached, first.failed], [0, 0, 1]);
    assert.equal(second.calls, first.calls);
    assert.deepEqual([second.cached, second.rewritesCached, second.failed], [first.calls - 2, 8, 1]);
    const rewrites = stub.chatRequests.filter((r) =>
      /search queries/.test(JSON.stringify((r.body as StubChatBody).messages)),
    );
    assert.equal(rewrites.length, 8);
  });
});
