/**
 * The package as users get it: `npm pack`, installed into a fresh project
 * offline (the project's own node_modules stand in for the registry: every
 * production dependency is linked in first, so npm finds nothing to fetch and
 * a package missing from `dependencies` fails the install), then used the way
 * the README says: plain `node` runs the library snippets, `tsc --strict
 * --module nodenext` compiles a consumer's own MemorySystem, and the installed
 * bin answers. Slow (a pack, an install, a compile): this one file does it all.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import { membenchBin, ROOT } from "../support/bin.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
const LOCOMO = join(ROOT, "test/fixtures/locomo/locomo10-mini.json");
const README_DATA = "datasets/locomo/locomo10.json";

/** Files under `dir` (relative to ROOT) whose names match `pattern`. */
function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && pattern.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** The ```ts blocks of the README's "Library" section. */
function readmeLibrarySnippets(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(
    readme.indexOf("\n## Library\n"),
    readme.indexOf("\n## ", readme.indexOf("\n## Library\n") + 1),
  );
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

const run = (cmd: string, args: string[], cwd: string) =>
  spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, HOME: cwd } });

describe("the packed package, installed in a fresh project", () => {
  const tmp = mkdtempSync(join(tmpdir(), "mb-package-"));
  const project = join(tmp, "consumer");
  let packed: string[] = [];

  before(() => {
    membenchBin(); // dist/ is built from the current src/
    const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
    packed = info!.files.map((f) => f.path);

    mkdirSync(join(project, "node_modules"), { recursive: true });
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    // The registry, offline: every production package of the lock file, from the project's node_modules.
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dev?: boolean }>;
    };
    for (const [key, entry] of Object.entries(lock.packages)) {
      const name = key.replace(/^node_modules\//, "");
      if (!key.startsWith("node_modules/") || name.includes("/node_modules/") || entry.dev) continue;
      if (!existsSync(join(ROOT, "node_modules", name))) continue; // another platform's optional build
      mkdirSync(dirname(join(project, "node_modules", name)), { recursive: true });
      symlinkSync(join(ROOT, "node_modules", name), join(project, "node_modules", name), "dir");
    }
    const install = run(
      "npm",
      ["install", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", join(tmp, info!.filename)],
      project,
    );
    assert.equal(install.status, 0, install.stderr);
    // The consumer's own dev dependencies, as a TypeScript project on Node has them.
    for (const name of ["typescript", "@types/node"]) {
      rmSync(join(project, "node_modules", name), { recursive: true, force: true });
      symlinkSync(join(ROOT, "node_modules", name), join(project, "node_modules", name), "dir");
    }
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it("holds the compiled code with declarations, the files read at run time and the demo's data, no sources or tests", () => {
    for (const f of ["bin/membench.js", "dist/index.js", "dist/index.d.ts", "dist/cli/main.js"]) {
      assert.ok(packed.includes(f), f);
    }
    for (const entry of ["", "ledger/", "systems/"]) {
      assert.ok(packed.includes(`dist/${entry}index.d.ts`), `dist/${entry}index.d.ts`);
    }
    // Prompt templates and the viewer's files are read from src/ at run time (src/util/paths.ts assetPath).
    const assets = filesUnder("src", /^(?!.*\.ts$)/);
    assert.ok(assets.length > 20);
    assert.deepEqual(
      assets.filter((f) => !packed.includes(f)),
      [],
      "files under src/ that are not TypeScript are read at run time: list them in package.json files",
    );
    for (const bench of [
      "subtlememory",
      "realmem",
      "memoryagentbench",
      "memora",
      "memconflict",
      "longmemeval",
      "locomo",
    ]) {
      assert.ok(
        packed.some((f) => f.startsWith(`test/fixtures/${bench}/`)),
        `demo data of ${bench}`,
      );
    }
    assert.deepEqual(
      packed.filter((f) => /\.(test\.)?ts$/.test(f) && !f.endsWith(".d.ts")),
      [],
      "TypeScript sources",
    );
    assert.ok(!packed.includes("dist/.tsbuildinfo"));
  });

  it("ships no compiled file whose source is gone (a stale dist/: npm run clean && npm run build)", () => {
    const sources = new Set(filesUnder("src", /\.ts$/));
    const orphans = packed
      .filter((f) => f.startsWith("dist/") && f.endsWith(".js"))
      .filter((f) => !sources.has(f.replace(/^dist\//, "src/").replace(/\.js$/, ".ts")));
    assert.deepEqual(orphans, []);
  });

  it("(a) runs the README's library snippets for membench and membench/ledger under plain node", () => {
    const [data, ledger, ...rest] = readmeLibrarySnippets();
    assert.equal(rest.length, 0, "the README's Library section has two snippets");
    assert.match(data!, /from "membench";/);
    assert.ok(data!.includes(README_DATA), `the first snippet loads ${README_DATA}`);
    assert.match(ledger!, /from "membench\/ledger";/);

    writeFileSync(join(project, "data.mjs"), data!.replace(README_DATA, LOCOMO));
    const first = run(process.execPath, ["data.mjs"], project);
    assert.equal(first.status, 0, first.stderr);
    const lines = first.stdout.trim().split("\n");
    assert.equal(lines.length, 2, first.stdout); // the fixture's two conversations
    for (const line of lines) assert.match(line, /^\S+ \d+$/);

    writeFileSync(join(project, "ledger.mjs"), ledger!);
    const second = run(process.execPath, ["ledger.mjs"], project);
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /Berlin/);
  });

  it("(b) compiles a consumer's MemorySystem and SystemDefinition with tsc --strict --module nodenext, and runs it", () => {
    copyFileSync(join(ROOT, "test/package/consumer.ts"), join(project, "consumer.ts"));
    const tsc = run(
      process.execPath,
      [
        join(project, "node_modules/typescript/bin/tsc"),
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
        "--types",
        "node",
        "--outDir",
        "out",
        "consumer.ts",
      ],
      project,
    );
    assert.equal(tsc.status, 0, `${tsc.stdout}${tsc.stderr}`);
    assert.equal(tsc.stdout, "");
    const r = run(process.execPath, ["out/consumer.js", LOCOMO], project);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { passed: true, checks: 7, episodes: 2 });
  });

  it("(c) the installed bin answers --version and runs the demo from the package's own data", () => {
    // Inside the user's own git checkout, a run must not record that checkout's commit as membench's.
    const git = (...args: string[]) => execFileSync("git", args, { cwd: project, encoding: "utf8" }).trim();
    git("init", "-q");
    git(
      "-c",
      "user.name=consumer",
      "-c",
      "user.email=consumer@example.invalid",
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "c",
    );
    const consumerHead = git("rev-parse", "HEAD");
    const bin = join(project, "node_modules/.bin/membench");
    const version = run(bin, ["--version"], project);
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout.trim(), pkg.version);
    const demo = run(bin, ["demo", "--system", "bm25", "--out", join(tmp, "runs")], project);
    assert.equal(demo.status, 0, demo.stderr);
    assert.match(demo.stdout, /^\| locomo +\| bm25 /m);
    assert.match(demo.stdout, /^\| memoryagentbench +\| bm25 /m);
    const configs = filesUnder(relative(ROOT, join(tmp, "runs")), /^config\.json$/);
    assert.equal(configs.length, 7);
    for (const config of configs) {
      const snapshot = JSON.parse(readFileSync(join(ROOT, config), "utf8")) as { gitCommit?: string };
      assert.notEqual(snapshot.gitCommit, consumerHead, config);
    }
  });
});
