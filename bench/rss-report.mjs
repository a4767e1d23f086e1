// Loaded with `node --import` into a membench child when /usr/bin/time is absent
// (bench/support.ts): writes the process's peak resident set, KiB, on exit.
import { writeFileSync } from "node:fs";

const file = process.env.MEMBENCH_BENCH_RSS_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
