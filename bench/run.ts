/**
 * Benchmarks, run with `npm run bench [loaders|harness|ledger|serve|startup]`. Each prints its own
 * numbers and ratios against a baseline measured in the same run.
 */
import "../test/support/clean-env.ts";
import { runHarnessBench } from "./harness.ts";
import { runLedgerBench } from "./ledger.ts";
import { runLoaderBench } from "./loaders.ts";
import { runServeBench } from "./serve.ts";
import { runStartupBench } from "./startup.ts";

const which = process.argv[2] ?? "all";
if (which === "all" || which === "loaders") await runLoaderBench();
if (which === "all" || which === "harness") await runHarnessBench();
if (which === "all" || which === "ledger") await runLedgerBench();
if (which === "all" || which === "serve") await runServeBench();
if (which === "all" || which === "startup") await runStartupBench();
