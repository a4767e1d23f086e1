/**
 * What the HTTP service costs over the library: the same synthetic store
 * written and searched in process (the baseline, measured in the same run) and
 * through `membench serve`'s API on loopback, with keep-alive connections as an
 * agent would hold them. Ratios are service / library.
 *
 *   npx tsx bench/serve.ts            (SERVE_BENCH_SIZE turns, default 10,000)
 */
import { createEmbedder } from "../src/embed/create.ts";
import type { Embedder } from "../src/embed/types.ts";
import { Ledger } from "../src/ledger/ledger.ts";
import { startLedgerService } from "../src/ledger/service/server.ts";
import { percentile, prng, sessionsOf, syntheticTurn } from "./ledger.ts";

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function writeAll(
  sessions: ReturnType<typeof sessionsOf>,
  write: (s: (typeof sessions)[number]) => Promise<unknown>,
) {
  const started = performance.now();
  for (const s of sessions) await write(s);
  return (performance.now() - started) / 1000;
}

export async function runServeBench(size = Number(process.env.SERVE_BENCH_SIZE ?? 10_000)): Promise<void> {
  const embedder: Embedder = await createEmbedder("hashing:256");
  const sessions = sessionsOf(size, 20, prng(7));
  const rnd = prng(99);
  const queries = Array.from({ length: 200 }, (_, i) => syntheticTurn(i * 7 + 3, rnd));
  console.log(`\n## ledger service overhead (synthetic, ${size} turns, hashing:256, loopback HTTP)\n`);

  const library = new Ledger({ embedder });
  const libraryWrite = await writeAll(sessions, (s) => library.add("bench", s));

  const served = new Ledger({ embedder });
  const service = await startLedgerService({
    ledger: served,
    info: { store: ":memory:", extractor: "offline rules" },
    port: 0,
  });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(new URL(path, service.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  try {
    const serviceWrite = await writeAll(sessions, (s) => post("/v1/namespaces/bench/sessions", s));
    for (const q of queries.slice(0, 20)) {
      await library.search("bench", q, { k: 10 });
      await post("/v1/namespaces/bench/search", { query: q, k: 10 });
    }
    const lib: number[] = [];
    const http: number[] = [];
    for (const q of queries) {
      lib.push(await timed(() => library.search("bench", q, { k: 10 })));
      http.push(await timed(() => post("/v1/namespaces/bench/search", { query: q, k: 10 })));
    }
    const ms = (xs: number[], p: number) => percentile(xs, p).toFixed(1);
    const ratio = (p: number) => (percentile(http, p) / percentile(lib, p)).toFixed(2);
    console.log("| measure | library (baseline) | service | ratio |");
    console.log("|---|---:|---:|---:|");
    console.log(
      `| search p50, k 10, query embedding included | ${ms(lib, 50)} ms | ${ms(http, 50)} ms | ${ratio(50)} |`,
    );
    console.log(`| search p95 | ${ms(lib, 95)} ms | ${ms(http, 95)} ms | ${ratio(95)} |`);
    const rate = (seconds: number) => (size / seconds).toFixed(0);
    console.log(
      `| write, one session (20 turns) per call | ${rate(libraryWrite)} turns/s | ${rate(serviceWrite)} turns/s | ${(libraryWrite / serviceWrite).toFixed(2)} |`,
    );
  } finally {
    await service.close();
    served.close();
    library.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runServeBench();
