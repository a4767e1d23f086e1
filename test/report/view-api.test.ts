/**
 * The viewer's JSON API over real scored runs (see view-run.ts for what each
 * probe was answered and judged): probe filters, the drill-down, overrides
 * reaching summary.json and surviving a re-score, the diff, and the server's
 * refusals (foreign Host, cross-origin writes, path traversal).
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunListItem, RunOverview } from "../../src/report/view/api.ts";
import type { ViewComparison } from "../../src/report/view/diff.ts";
import type { ProbeDetail, ProbeRow } from "../../src/report/view/probes.ts";
import { probeKey } from "../../src/report/view/runs.ts";
import { startViewer, type Viewer } from "../../src/report/view/server.ts";
import { companionValues, retrievalK, verdictMetricOf } from "../../src/report/view/verdict.ts";
import { scoreRun } from "../../src/run/score-run.ts";
import type { Summary } from "../../src/run/summary.ts";
import { makeViewerRuns, XSS_ANSWER, XSS_QUESTION, XSS_TURN } from "./view-run.ts";

const TMP = mkdtempSync(join(tmpdir(), "membench-view-api-"));

interface Reply<T> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

function call<T = { error: string }>(
  viewer: Viewer,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const { port } = viewer.server.address() as AddressInfo;
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    ...(payload ? { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(payload)) } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode ?? 0, body: body as T, headers: res.headers });
      });
    });
    req.on("error", reject);
    req.end(payload);
  });
}

type ProbeList = { total: number; rows: ProbeRow[] };
type OverrideReply = { probe: ProbeDetail; summary: Summary };

const key = (system: string, probeId: string) =>
  probeKey({ unitId: `${system}|${probeId}`, probeId, setting: "default" });

const readSummary = (runs: string, id: string) =>
  JSON.parse(readFileSync(join(runs, id, "summary.json"), "utf8")) as Summary;

const accuracy = (summary: Summary, system: string) =>
  summary.results.find((r) => r.system === system && r.setting === "default")!.metrics.accuracy;

describe("membench view API", () => {
  let runs: string;
  let viewer: Viewer;

  before(async () => {
    runs = await makeViewerRuns(TMP);
    viewer = await startViewer({ runsDir: runs, port: 0 });
  });
  after(async () => {
    await viewer?.close();
    rmSync(TMP, { recursive: true, force: true });
  });

  it("listens on 127.0.0.1 by default and lists both runs with their headline accuracy", async () => {
    assert.equal((viewer.server.address() as AddressInfo).address, "127.0.0.1");
    const { status, body } = await call<RunListItem[]>(viewer, "GET", "/api/runs");
    assert.equal(status, 200);
    assert.deepEqual(
      body.map((r) => r.id),
      ["alpha", "beta"],
    );
    const alpha = body[0]!;
    assert.equal(alpha.benchmark, "longmemeval");
    assert.deepEqual(
      alpha.rows.map((r) => [r.system, r.n, r.headline?.metric, r.headline?.value, r.judgeFailures]),
      [
        ["bm25", 4, "accuracy", 0.5, 1],
        ["none", 4, "accuracy", 0.5, 1],
      ],
    );
    assert.equal(body[1]!.rows[0]!.headline?.value, 0.75);
  });

  it("describes a run: labels for the filters, verdict metric, retrieval k within the answer depth", async () => {
    const { body } = await call<RunOverview>(viewer, "GET", "/api/runs/alpha");
    assert.equal(body.scored, true);
    assert.equal(body.probes, 8);
    assert.deepEqual(
      body.verdictMetrics.map((v) => v.metric),
      ["accuracy"],
    );
    assert.deepEqual(body.labels.question_type, [
      "knowledge-update",
      "multi-session",
      "single-session-user",
      "temporal-reasoning",
    ]);
    // LongMemEval answers from the top 10; metrics exist at 5, 10 and 20.
    assert.equal(body.retrievalK, 10);
  });

  it("filters probes by verdict, retrieval, failure stage, label and text", async () => {
    const rows = async (query: string) =>
      (await call<ProbeList>(viewer, "GET", `/api/runs/alpha/probes?${query}`)).body.rows.map(
        (r) => `${r.system}/${r.probeId}`,
      );
    assert.deepEqual(await rows("outcome=incorrect"), [
      "bm25/9c3d7a22",
      "bm25/71aa0d44",
      "none/9c3d7a22",
      "none/71aa0d44",
    ]);
    assert.equal((await rows("outcome=correct")).length, 4);
    // `none` retrieves nothing: every one of its probes misses; bm25 finds evidence for all four.
    assert.deepEqual(await rows("retrieval=miss"), [
      "none/e47b1c01",
      "none/9c3d7a22",
      "none/gpt4_5f1e8b33_abs",
      "none/71aa0d44",
    ]);
    assert.equal((await rows("retrieval=hit&system=bm25")).length, 4);
    assert.deepEqual(await rows("stage=retrieval"), ["none/9c3d7a22"]);
    assert.deepEqual(await rows("stage=utilisation"), ["bm25/9c3d7a22"]);
    assert.deepEqual(await rows("stage=judge-failure"), ["bm25/71aa0d44", "none/71aa0d44"]);
    assert.deepEqual(await rows("label.question_type=multi-session&system=none"), ["none/9c3d7a22"]);
    assert.deepEqual(await rows("text=HOUSEPLANTS&outcome=incorrect"), ["bm25/9c3d7a22", "none/9c3d7a22"]);
    const page = await call<ProbeList>(viewer, "GET", "/api/runs/alpha/probes?limit=3&offset=6");
    assert.equal(page.body.total, 8);
    assert.equal(page.body.rows.length, 2);
  });

  it("sorts probes by verdict, label or value, ties in the run's order, paging after sorting", async () => {
    const rows = async (query: string) =>
      (await call<ProbeList>(viewer, "GET", `/api/runs/alpha/probes?${query}`)).body.rows.map(
        (r) => `${r.system}/${r.probeId}`,
      );
    assert.deepEqual((await rows("sort=verdict")).slice(0, 4), [
      "bm25/9c3d7a22",
      "bm25/71aa0d44",
      "none/9c3d7a22",
      "none/71aa0d44",
    ]);
    assert.deepEqual(await rows("sort=label.question_type&order=desc&system=bm25"), [
      "bm25/gpt4_5f1e8b33_abs", // temporal-reasoning
      "bm25/e47b1c01", // single-session-user
      "bm25/9c3d7a22", // multi-session
      "bm25/71aa0d44", // knowledge-update
    ]);
    const all = await rows("sort=verdict&order=desc");
    assert.deepEqual(all.slice(0, 4), [
      "bm25/e47b1c01",
      "bm25/gpt4_5f1e8b33_abs",
      "none/e47b1c01",
      "none/gpt4_5f1e8b33_abs",
    ]);
    assert.deepEqual(await rows("sort=verdict&order=desc&limit=2&offset=2"), all.slice(2, 4));
  });

  it("drills into a probe: question, gold, evidence-marked items, context, answer and the judge's reason as data", async () => {
    const { status, body } = await call<ProbeDetail>(
      viewer,
      "GET",
      `/api/runs/alpha/probes/${key("bm25", "9c3d7a22")}`,
    );
    assert.equal(status, 200);
    assert.equal(body.record.question, XSS_QUESTION);
    assert.equal(body.record.answer, XSS_ANSWER);
    assert.deepEqual(body.gold?.answers, ["3"]);
    assert.ok(body.evidenceTurns.some((t) => t.content === XSS_TURN));
    assert.ok(body.retrieved.length > 0);
    for (const item of body.retrieved) {
      assert.equal(
        item.evidence,
        (item.sessionIds ?? []).some((s) => body.gold!.evidenceSessionIds.includes(s)),
      );
      for (const [start, end] of item.highlights) {
        assert.ok(body.evidenceTurns.some((t) => t.content === item.text.slice(start, end)));
      }
    }
    assert.ok(body.record.context.text.length > 0);
    assert.deepEqual(
      { metric: body.verdict?.metric, value: body.verdict?.value, correct: body.verdict?.correct },
      { metric: "accuracy", value: 0, correct: false },
    );
    assert.equal(
      (body.score!.verdicts[0]!.value as { reason: string }).reason,
      "<b>wrong</b> count <script>window.__pwned = 5</script>",
    );
    assert.equal(body.row.stage, "utilisation");
    const failed = await call<ProbeDetail>(viewer, "GET", `/api/runs/alpha/probes/${key("bm25", "71aa0d44")}`);
    assert.equal(failed.body.score!.verdicts[0]!.ok, false);
    assert.match(failed.body.score!.verdicts[0]!.failure ?? "", /unusable after one repair/);
  });

  it("an override changes summary.json, shows its comment and previous value, survives a re-score, and can be removed", async () => {
    const k = key("bm25", "9c3d7a22");
    const posted = await call<OverrideReply>(viewer, "POST", "/api/runs/alpha/overrides", {
      body: { key: k, value: 1, comment: "three plants is what it meant" },
    });
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    assert.equal(accuracy(posted.body.summary, "bm25"), 0.75);
    assert.equal(accuracy(readSummary(runs, "alpha"), "bm25"), 0.75);
    assert.equal(accuracy(readSummary(runs, "alpha"), "none"), 0.5);
    const byType = readSummary(runs, "alpha").results[0]!.byLabel.question_type!;
    assert.equal(byType["multi-session"]!.accuracy, 1);
    const override = posted.body.probe.verdict?.override;
    assert.deepEqual(
      { value: override?.value, previous: override?.previous, comment: override?.comment },
      { value: 1, previous: 0, comment: "three plants is what it meant" },
    );
    assert.equal(posted.body.probe.row.outcome, "correct");
    assert.equal(posted.body.probe.row.overridden, true);

    const listed = await call<ProbeList>(viewer, "GET", "/api/runs/alpha/probes?outcome=incorrect&system=bm25");
    assert.deepEqual(
      listed.body.rows.map((r) => r.probeId),
      ["71aa0d44"],
    );

    // A re-score asks the judges again and still applies the person's verdict.
    const { summary } = await scoreRun(join(runs, "alpha"), { judgeLlm: `scripted:${join(TMP, "alpha.jsonl")}` });
    assert.equal(accuracy(summary, "bm25"), 0.75);

    const cleared = await call<OverrideReply>(viewer, "DELETE", `/api/runs/alpha/overrides?key=${k}`, { body: {} });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.equal(accuracy(readSummary(runs, "alpha"), "bm25"), 0.5);
    assert.equal(cleared.body.probe.verdict?.override, undefined);
  });

  it("refuses overrides without a comment, out of the metric's range, or of unknown probes", async () => {
    const k = key("bm25", "9c3d7a22");
    const noComment = await call(viewer, "POST", "/api/runs/alpha/overrides", { body: { key: k, value: 1 } });
    assert.equal(noComment.status, 400);
    assert.match(noComment.body.error, /comment is required/);
    const range = await call(viewer, "POST", "/api/runs/alpha/overrides", {
      body: { key: k, value: 2, comment: "x" },
    });
    assert.equal(range.status, 400);
    assert.match(range.body.error, /from 0 to 1/);
    const unknown = await call(viewer, "POST", "/api/runs/alpha/overrides", {
      body: { key: key("bm25", "nope"), value: 1, comment: "x" },
    });
    assert.equal(unknown.status, 404);
    const garbled = await call(viewer, "POST", "/api/runs/alpha/overrides", {
      body: { key: "!!", value: 1, comment: "x" },
    });
    assert.equal(garbled.status, 400);
    assert.equal(accuracy(readSummary(runs, "alpha"), "bm25"), 0.5);
  });

  it("sets two runs side by side: the shared system aligned, the flipped probe linked to both drill-downs", async () => {
    const { status, body } = await call<{ comparisons: ViewComparison[] }>(viewer, "GET", "/api/diff?a=alpha&b=beta");
    assert.equal(status, 200, JSON.stringify(body));
    // Only bm25 is in both runs.
    assert.equal(body.comparisons.length, 1);
    const c = body.comparisons[0]!;
    assert.deepEqual(
      [c.a.system, c.b.system, c.a.setting, c.metric, c.binary, c.aligned],
      ["bm25", "bm25", "default", "accuracy", true, 4],
    );
    assert.deepEqual([c.overall?.meanA, c.overall?.meanB], [0.5, 0.75]);
    assert.deepEqual([c.overall?.mcnemar?.onlyA, c.overall?.mcnemar?.onlyB], [0, 1]);
    assert.deepEqual(
      c.changed.map((p) => [p.probeId, p.direction, p.keyA, p.keyB]),
      [["9c3d7a22", "wrong→right", key("bm25", "9c3d7a22"), key("bm25", "9c3d7a22")]],
    );

    const chosen = await call<{ comparisons: ViewComparison[] }>(
      viewer,
      "GET",
      "/api/diff?a=alpha&b=beta&systemA=none&systemB=bm25",
    );
    const n = chosen.body.comparisons[0]!;
    assert.deepEqual([n.a.system, n.b.system], ["none", "bm25"]);
    assert.deepEqual(
      n.changed.map((p) => [p.probeId, p.keyA]),
      [["9c3d7a22", key("none", "9c3d7a22")]],
    );

    const bad = await call(viewer, "GET", "/api/diff?a=alpha&b=beta&setting=bogus");
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /expected one of default, oracle, perfect/);
    assert.equal((await call(viewer, "GET", "/api/diff?a=alpha&b=gamma")).status, 404);
  });

  it("serves the front end with a strict content security policy and nothing outside its own files", async () => {
    const page = await call<string>(viewer, "GET", "/");
    assert.equal(page.status, 200);
    assert.match(String(page.headers["content-security-policy"]), /script-src 'self'/);
    assert.match(page.body, /<script type="module" src="\/app.js">/);
    for (const path of ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/static/app.js", "/api.ts", "/index.html"]) {
      assert.equal((await call(viewer, "GET", path)).status, 404, path);
    }
    for (const id of ["..", "..%2F..%2Fetc", "alpha%2F..%2Fbeta"]) {
      assert.equal((await call(viewer, "GET", `/api/runs/${id}`)).status, 404, id);
    }
  });

  it("refuses a foreign Host (DNS rebinding), cross-origin writes and non-JSON writes", async () => {
    const rebound = await call(viewer, "GET", "/api/runs", { headers: { Host: "attacker.example:80" } });
    assert.equal(rebound.status, 403);
    const { port } = viewer.server.address() as AddressInfo;
    assert.equal((await call(viewer, "GET", "/api/runs", { headers: { Host: `localhost:${port}` } })).status, 200);
    const k = key("bm25", "9c3d7a22");
    const crossSite = await call(viewer, "POST", "/api/runs/alpha/overrides", {
      body: { key: k, value: 1, comment: "x" },
      headers: { Origin: "http://attacker.example" },
    });
    assert.equal(crossSite.status, 403);
    const form = await call(viewer, "POST", "/api/runs/alpha/overrides", {
      body: { key: k, value: 1, comment: "x" },
      headers: { "Content-Type": "text/plain" },
    });
    assert.equal(form.status, 415);
    assert.equal(accuracy(readSummary(runs, "alpha"), "bm25"), 0.5);
  });
});

describe("verdict helpers", () => {
  it("recomputes what a scorer derives from the verdict metric", () => {
    assert.deepEqual(companionValues("qa_score", 2, { qa_score: 0 }), {
      qa_score_norm: 2 / 3,
      qa_hallucination: 0,
      qa_perfect: 0,
    });
    assert.deepEqual(companionValues("accuracy", 1, { accuracy: 0, abstention_accuracy: 0 }), {
      abstention_accuracy: 1,
    });
    assert.deepEqual(companionValues("accuracy", 1, { accuracy: 0 }), {});
    assert.deepEqual(companionValues("aa", 0, { aa: 1, "seh@3": 1, eug: 0, rf: 0, uf: 0 }), { eug: 1, rf: 0, uf: 1 });
  });

  it("picks the verdict metric: MemoryAgentBench's primary metric of the sub-dataset, else the first known", () => {
    const metrics = { em: 0, subem: 1, f1: 0.4, rougeL: 0.4 };
    assert.equal(verdictMetricOf(metrics, { sub_dataset: "detective_qa" })?.metric, "em");
    assert.equal(verdictMetricOf(metrics, { sub_dataset: "ruler_qa1_197K" })?.metric, "subem");
    assert.equal(verdictMetricOf({ "recall@5": 0.6 }, { sub_dataset: "recsys_redial_full" })?.pass, 0.5);
    assert.equal(verdictMetricOf({ "recall@5": 0.6 })?.metric, undefined);
    assert.equal(verdictMetricOf(metrics)?.metric, "subem");
    assert.deepEqual(verdictMetricOf({ qa_score: 2, qa_score_norm: 2 / 3 }), {
      metric: "qa_score",
      min: 0,
      max: 3,
      pass: 3,
    });
    assert.equal(verdictMetricOf({ f1_all: 0.5, j: 1 })?.metric, "j");
    assert.equal(verdictMetricOf({ mem_recall: 1 }), undefined);
  });

  it("takes the largest retrieval k within the answer depth, else the smallest", () => {
    const r = { retrieval: { "recall_any@5": 1, "recall_any@10": 0, "recall_any@20": 1 } };
    assert.equal(retrievalK(r, 10), 10);
    assert.equal(retrievalK(r, 3), 5);
    assert.equal(retrievalK(r, undefined), 20);
    assert.equal(retrievalK({}, 10), undefined);
  });
});
