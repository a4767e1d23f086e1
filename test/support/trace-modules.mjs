// Preloaded with `node --import` in a child process: appends the URL of every module
// the process resolves (ESM, and CommonJS through require.cache at exit) to the file
// named by MEMBENCH_TRACE_MODULES, one per line. Plain JavaScript: the child runs no tsx.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

const out = process.env.MEMBENCH_TRACE_MODULES;
if (out) {
  register("./trace-modules-hooks.mjs", import.meta.url, { data: { out } });
  process.on("exit", () => {
    const cjs = Object.keys(createRequire(import.meta.url).cache).map((path) => pathToFileURL(path).href);
    if (cjs.length) appendFileSync(out, `${cjs.join("\n")}\n`);
  });
}
