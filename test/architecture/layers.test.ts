/**
 * The house's layers (docs/architecture.md): every file under src/ belongs to a
 * layer, and imports only its own layer or those below it. The ledger's files
 * import each other without cycles. Imports are read from the sources' syntax
 * (static imports, `export … from`, type-only imports and dynamic `import()`),
 * so a type or a lazy import counts as a dependency too.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import ts from "typescript";
import { ROOT } from "../support/bin.ts";

/**
 * Bottom to top. A unit is a folder of src/ (or a sub-folder named on its own,
 * which then leaves its parent's unit); units on one line are peers and may
 * import each other.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["core"],
  ["util", "config", "tokens", "text"],
  ["llm", "embed"],
  ["score"],
  ["ledger"],
  ["systems"],
  ["benchmarks"],
  ["data"],
  ["run", "pool"],
  ["synth", "report", "ledger/service"],
  ["cli"],
];

const SRC = join(ROOT, "src");

/**
 * The package's entry points (src/index.ts and what package.json `exports`
 * names): they assemble the public surface, so their `export … from` may reach
 * any layer; their own imports follow the order.
 */
function entryPoints(): Set<string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    exports: Record<string, string | { default?: string }>;
  };
  const out = new Set<string>();
  for (const target of Object.values(pkg.exports)) {
    const file = typeof target === "string" ? target : target.default;
    const m = file && /^\.\/dist\/(.+)\.js$/.exec(file);
    if (m) out.add(`src/${m[1]}.ts`);
  }
  return out;
}

const ENTRIES = entryPoints();

/** The unit a file under src/ belongs to ("" for src/index.ts), by its path relative to the repository. */
export function unitOf(file: string): string {
  const parts = file
    .replace(/^src\//, "")
    .split("/")
    .slice(0, -1);
  for (let n = parts.length; n > 1; n--) {
    const sub = parts.slice(0, n).join("/");
    if (LAYERS.some((l) => l.includes(sub))) return sub;
  }
  return parts[0] ?? "";
}

function layerOf(unit: string): number | undefined {
  const i = LAYERS.findIndex((l) => l.includes(unit));
  return i < 0 ? undefined : i;
}

export interface Import {
  /** The module specifier as written. */
  spec: string;
  line: number;
  /** `export … from`: a re-export. */
  reexport: boolean;
}

/** Every import of a source text: static, type-only, re-exports and dynamic `import("…")`. */
export function importsOf(text: string, file = "x.ts"): Import[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Import[] = [];
  const add = (node: ts.Node, spec: ts.Expression | undefined, reexport: boolean) => {
    if (spec && ts.isStringLiteralLike(spec)) {
      out.push({ spec: spec.text, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, reexport });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node, node.moduleSpecifier, false);
    else if (ts.isExportDeclaration(node)) add(node, node.moduleSpecifier, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal as ts.Expression, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") ? [relative(ROOT, path).split("\\").join("/")] : [];
  });
}

/** A file's imports of other files under src/, resolved to repository-relative paths. */
function localImports(file: string, text: string): (Import & { target: string })[] {
  return importsOf(text, file)
    .filter((i) => i.spec.startsWith("."))
    .map((i) => ({
      ...i,
      target: relative(ROOT, resolve(ROOT, dirname(file), i.spec))
        .split("\\")
        .join("/"),
    }))
    .filter((i) => i.target.startsWith("src/"));
}

/** What breaks the order in one file: one line per offending import, naming the file, line and import. */
export function layerViolations(file: string, text: string): string[] {
  const from = unitOf(file);
  const entry = ENTRIES.has(file);
  const own = layerOf(from);
  if (own === undefined && !entry) return [`${file}: folder "src/${from}" has no layer (add it to LAYERS)`];
  const out: string[] = [];
  for (const i of localImports(file, text)) {
    const to = unitOf(i.target);
    if (to === from) continue;
    const theirs = layerOf(to);
    if (entry && i.reexport) continue;
    if (theirs === undefined) {
      if (to !== "") out.push(`${file}:${i.line} imports "${i.spec}": folder "src/${to}" has no layer`);
      else if (!entry) out.push(`${file}:${i.line} imports "${i.spec}": the package entry point is the top`);
      continue;
    }
    if (own !== undefined && theirs > own) {
      out.push(`${file}:${i.line} imports "${i.spec}": ${from} (layer ${own}) may not import ${to} (layer ${theirs})`);
    }
  }
  return out;
}

/** Import cycles among `files` (strongly connected components), each with the imports that close it. */
export function cycles(files: ReadonlyMap<string, string>): string[] {
  const edges = new Map<string, (Import & { target: string })[]>();
  for (const [file, text] of files)
    edges.set(
      file,
      localImports(file, text).filter((i) => files.has(i.target)),
    );
  // Tarjan's algorithm.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const { target: w } of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = new Set<string>();
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.add(w);
      if (w === v) break;
    }
    const inside = [...component]
      .sort()
      .flatMap((f) =>
        (edges.get(f) ?? []).filter((i) => component.has(i.target)).map((i) => `${f}:${i.line} imports "${i.spec}"`),
      );
    if (component.size > 1 || inside.length) out.push(`cycle: ${inside.join("; ")}`);
  };
  for (const v of [...files.keys()].sort()) if (!index.has(v)) connect(v);
  return out;
}

const FILES = new Map(sourceFiles(SRC).map((f) => [f, readFileSync(join(ROOT, f), "utf8")] as const));

describe("layers", () => {
  it("reads static, type-only, re-exported and dynamic imports", () => {
    const text = [
      'import type { A } from "../benchmarks/types.ts";',
      'export { b } from "../run/unit.ts";',
      "const m = await import(\n  '../pool/jobs.ts');",
      'type T = import("../report/model.ts").Report;',
      'import "node:fs";',
    ].join("\n");
    assert.deepEqual(
      importsOf(text).map((i) => [i.spec, i.line, i.reexport]),
      [
        ["../benchmarks/types.ts", 1, false],
        ["../run/unit.ts", 2, true],
        ["../pool/jobs.ts", 3, false],
        ["../report/model.ts", 5, false],
        ["node:fs", 6, false],
      ],
    );
  });

  it("names the file, the line and the import that points up", () => {
    const text = 'import { x } from "./ok.ts";\nimport { y } from "../benchmarks/locomo/score.ts";\n';
    assert.deepEqual(layerViolations("src/score/scorers.ts", text), [
      'src/score/scorers.ts:2 imports "../benchmarks/locomo/score.ts": score (layer 3) may not import benchmarks (layer 6)',
    ]);
    assert.deepEqual(layerViolations("src/ledger/service/api.ts", 'import "../../systems/ledger.ts";'), []);
    assert.equal(layerViolations("src/ledger/x.ts", 'import "./service/api.ts";').length, 1);
    assert.match(layerViolations("src/newfolder/x.ts", "")[0]!, /has no layer/);
  });

  it("finds a cycle and names the imports that close it", () => {
    const files = new Map([
      ["src/ledger/a.ts", 'import type { B } from "./b.ts";'],
      ["src/ledger/b.ts", 'import { c } from "./c.ts";'],
      ["src/ledger/c.ts", 'import { a } from "./a.ts";'],
      ["src/ledger/d.ts", 'import { a } from "./a.ts";'],
    ]);
    assert.deepEqual(cycles(files), [
      'cycle: src/ledger/a.ts:1 imports "./b.ts"; src/ledger/b.ts:1 imports "./c.ts"; src/ledger/c.ts:1 imports "./a.ts"',
    ]);
  });

  it("every folder of src/ has a layer and imports none above it", () => {
    const problems = [...FILES].flatMap(([file, text]) => layerViolations(file, text));
    assert.deepEqual(problems, [], `imports against the layer order:\n${problems.join("\n")}`);
  });

  it("the files of src/ledger import each other without cycles", () => {
    const ledger = new Map([...FILES].filter(([f]) => f.startsWith("src/ledger/")));
    assert.ok(ledger.size > 20, "the ledger's files were read");
    const found = cycles(ledger);
    assert.deepEqual(found, [], `import cycles in src/ledger:\n${found.join("\n")}`);
  });
});
