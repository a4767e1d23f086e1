/**
 * What `--help` tells, for every command: examples, numbers printed as numbers,
 * the default system, the renamed --parallel-units, the exit codes; and the
 * completion scripts written from the same definitions. In process (the
 * program as main.ts builds it), plus the bin for what only the bin does.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { Command } from "commander";
import { BENCHMARK_IDS } from "../../src/benchmarks/ids.ts";
import { completionScript } from "../../src/cli/completion.ts";
import { buildProgram } from "../../src/cli/main.ts";
import { membenchBin } from "../support/bin.ts";

/** The help a user sees, `addHelpText` included. */
function helpOf(cmd: Command): string {
  let out = "";
  cmd.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  cmd.outputHelp();
  return out;
}

function commands(cmd: Command, path: string[] = []): Array<{ path: string; cmd: Command }> {
  return cmd.commands.flatMap((c) => [
    { path: [...path, c.name()].join(" "), cmd: c },
    ...commands(c, [...path, c.name()]),
  ]);
}

const program = buildProgram();
const all = commands(program);
const find = (path: string) => all.find((c) => c.path === path)!.cmd;

describe("--help", () => {
  it("lists every command we expect", () => {
    for (const name of ["run", "demo", "doctor", "data pull", "score", "report", "view", "completion", "worker"]) {
      assert.ok(find(name), name);
    }
  });

  it("every command shows examples", () => {
    for (const { path, cmd } of [{ path: "(membench)", cmd: program }, ...all]) {
      assert.match(helpOf(cmd), /^Examples?:\n {2}\S/m, `membench ${path} --help`);
    }
  });

  it('numeric defaults print as numbers, never as strings like (default: "2")', () => {
    let numeric = 0;
    for (const { path, cmd } of all) {
      const help = helpOf(cmd);
      assert.doesNotMatch(help, /\(default: "\d+(?:\.\d+)?"\)/, `membench ${path} --help`);
      numeric += help.match(/\(default:\s+[\d.]+\)/g)?.length ?? 0;
    }
    // run --parallel-units, score --judge-runs, report/compare --iterations and --seed, serve, view, worker…
    assert.ok(numeric >= 15, `${numeric} numeric defaults`);
    assert.match(helpOf(find("run")), /--parallel-units <n>[\s\S]*?\(default: 2\)/);
  });

  it("run: says the default system, and --parallel-units is not the model calls' MEMBENCH_CONCURRENCY", () => {
    const help = helpOf(find("run"));
    assert.match(help, /--system <spec>[\s\S]*?\(default:\s+bm25\s+when\s+none\s+is\s+given\)/);
    assert.match(help, /--parallel-units <n> +units \(system × episode\) replayed at once/);
    assert.match(help, /MEMBENCH_CONCURRENCY/);
    // The old flag still parses (with a warning) but is not offered.
    assert.doesNotMatch(help, /--concurrency/);
    assert.doesNotMatch(helpOf(find("worker")), /--concurrency/);
    assert.match(help, /-c, --config <file>/);
    assert.match(help, /--json/);
  });

  it("documents the exit codes, 130 included, and --debug", () => {
    const root = helpOf(program);
    assert.match(root, /Exit codes: 0 done; 1 failed[\s\S]*2 a configuration or usage error; 130 interrupted/);
    assert.match(root, /--debug +print the stack of an error/);
    assert.match(helpOf(find("run")), /Exit codes: 0 done;[\s\S]*130\s+interrupted/);
  });

  it("data pull offers the benchmarks that have a release, not the unified format", () => {
    const pull = helpOf(find("data pull"));
    const listed = /benchmark id \(([^)]+)\)/.exec(pull.replace(/\s+/g, " "))![1]!.split(", ");
    assert.deepEqual(
      listed,
      BENCHMARK_IDS.filter((id) => id !== "unified"),
    );
    assert.match(helpOf(find("data inspect")), /unified/);
    const unified = spawnSync(process.execPath, [membenchBin(), "data", "pull", "unified"], {
      cwd: mkdtempSync(join(tmpdir(), "mb-pull-")),
      encoding: "utf8",
    });
    assert.equal(unified.status, 2);
    assert.match(unified.stderr, /unified is membench's own format .*there is no release to pull/);
  });
});

describe("membench completion", () => {
  const bash = completionScript("bash", program);

  /** COMPREPLY for the words typed so far (the last one being completed). */
  function complete(words: string[]): string[] {
    const dir = mkdtempSync(join(tmpdir(), "mb-compl-"));
    const file = join(dir, "membench.bash");
    writeFileSync(file, bash);
    const script = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; cd ${dir}; _membench; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = spawnSync("bash", ["-c", script], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.split("\n").filter(Boolean);
  }

  it("bash: commands, subcommands, a command's options, benchmark ids", () => {
    assert.equal(spawnSync("bash", ["-n"], { input: bash }).status, 0);
    assert.deepEqual(complete(["membench", "ru"]), ["run"]);
    assert.deepEqual(complete(["membench", "data", "p"]), ["pull"]);
    assert.deepEqual(complete(["membench", "run", "--data", "x", "--parallel"]), ["--parallel-units"]);
    assert.ok(complete(["membench", "run", "lo"]).includes("locomo"));
    // Hidden (deprecated) flags are not offered.
    assert.deepEqual(complete(["membench", "run", "--conc"]), []);
  });

  it("zsh: a #compdef function per command, syntax-checked where zsh is installed", (t) => {
    const zsh = completionScript("zsh", program);
    assert.match(zsh, /^#compdef membench$/m);
    for (const name of ["_membench_run", "_membench_data_pull", "_membench_completion"]) {
      assert.match(zsh, new RegExp(`^${name}\\(\\) \\{$`, "m"), name);
    }
    assert.match(zsh, /'--parallel-units\[units \(system × episode\) replayed at once/);
    const check = spawnSync("zsh", ["-n"], { input: zsh });
    if (check.error) return t.skip("zsh is not installed");
    assert.equal(check.status, 0, String(check.stderr));
  });

  it("the bin prints the script, and refuses another shell with exit 2", () => {
    const ok = spawnSync(process.execPath, [membenchBin(), "completion", "bash"], { encoding: "utf8" });
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /complete -o filenames -F _membench membench/);
    const fish = spawnSync(process.execPath, [membenchBin(), "completion", "fish"], { encoding: "utf8" });
    assert.equal(fish.status, 2);
    assert.match(fish.stderr, /expected bash or zsh, got "fish"/);
  });
});
