#!/usr/bin/env node
// Runs the compiled CLI in dist/ (`npm run build`; `npm install` and `npm ci` build it through `prepare`).
import { existsSync } from "node:fs";

const entry = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("membench is not built (no dist/cli/main.js): run `npm run build` in its folder\n");
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
