import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { ConfigError, SystemError } from "../../src/core/errors.ts";
import { assertConformance } from "../../src/systems/conformance.ts";
import { systemContext } from "../../src/systems/context.ts";
import { createSystem } from "../../src/systems/index.ts";
import { loadModuleFile, resolvePackage } from "../../src/systems/load-module.ts";
import { resolveSystems } from "../../src/systems/resolve.ts";

const root = resolve(import.meta.dirname, "../..");
const fixtures = join(root, "test/fixtures/systems");
const keyword = join(fixtures, "keyword-system.mjs");
const rel = (path: string) => `./${path.slice(root.length + 1)}`;

function configError(message: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof ConfigError, String(error));
    assert.match(error.message, message);
    return true;
  };
}

const temp: string[] = [];
after(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

/** A folder with an installed ESM-only package that re-exports the keyword fixture. */
function projectWithPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), "membench-pkg-"));
  temp.push(dir);
  const pkg = join(dir, "node_modules", "@acme", "memory");
  mkdirSync(join(pkg, "dist"), { recursive: true });
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({
      name: "@acme/memory",
      version: "1.4.2",
      type: "module",
      // Only an import condition: require.resolve refuses such a package.
      exports: { ".": { import: "./dist/index.js" }, "./classes": { import: "./dist/classes.js" } },
    }),
  );
  const url = pathToFileURL(keyword).href;
  writeFileSync(
    join(pkg, "dist", "index.js"),
    `export { makeKeywordSystem as keyword } from ${JSON.stringify(url)};\n`,
  );
  writeFileSync(join(pkg, "dist", "classes.js"), `export { KeywordSystem } from ${JSON.stringify(url)};\n`);
  mkdirSync(join(dir, "sub", "deeper"), { recursive: true });
  return dir;
}

describe("module systems", () => {
  it("a default-exported definition: its schema checks the options, the record holds the absolute path", async () => {
    const [resolved] = await resolveSystems([`${rel(keyword)}#{"minShared":2}`]);
    assert.equal(resolved!.label, 'keyword-system#{"minShared":2}');
    assert.deepEqual(resolved!.source, { kind: "module", path: keyword });
    assert.deepEqual(resolved!.options, { minShared: 2 });
    await assert.rejects(
      resolveSystems([`${rel(keyword)}#{"minShard":2}`]),
      configError(/minShard.*unknown option of system keyword; known: minShared/),
    );
    const system = await createSystem(rel(keyword));
    assert.equal((system as unknown as { minShared: number }).minShared, 1, "the schema's default");
  });

  it("a class or a factory export gets the options as given and the same context as built-ins", async () => {
    const context = systemContext({ tokenBudget: 99 });
    for (const name of ["KeywordSystem", "makeKeywordSystem"]) {
      const system = (await createSystem(`${rel(keyword)}#${name}#{"minShared":3,"extra":"kept"}`, {
        context,
      })) as unknown as { minShared: number; options: unknown; context: unknown };
      assert.equal(system.minShared, 3);
      assert.deepEqual(system.options, { minShared: 3, extra: "kept" });
      assert.equal(system.context, context);
    }
    const [resolved] = await resolveSystems([`${rel(keyword)}#KeywordSystem`]);
    assert.equal(resolved!.label, "KeywordSystem");
    assert.deepEqual(resolved!.source, { kind: "module", path: keyword, export: "KeywordSystem" });
  });

  it("passes the conformance kit through every kind of export", async () => {
    for (const spec of [rel(keyword), `${rel(keyword)}#KeywordSystem`, `${rel(keyword)}#makeKeywordSystem`]) {
      await assertConformance(() => createSystem(spec));
    }
  });

  it("refuses exports that are not systems, naming the file and what it exports", async () => {
    await assert.rejects(
      createSystem(`${rel(keyword)}#nothingHere`),
      configError(/keyword-system\.mjs has no export "nothingHere" \(its exports: KeywordSystem, anInstance, default/),
    );
    await assert.rejects(
      createSystem(`${rel(keyword)}#notASystem`),
      configError(
        /export "notASystem" of .* is a number; expected a SystemDefinition, a MemorySystem class or a factory/,
      ),
    );
    await assert.rejects(
      createSystem(`${rel(keyword)}#anInstance`),
      configError(/is a MemorySystem instance; .*export its class or a factory, so each run gets a fresh one/),
    );
    await assert.rejects(createSystem(`${rel(keyword)}#makeNothing`), (error: unknown) => {
      assert.ok(error instanceof SystemError);
      assert.match(error.message, /factory makeNothing returned an object, not a MemorySystem/);
      return true;
    });
    await assert.rejects(
      createSystem("./no/such/file.mjs"),
      configError(/module .*no\/such\/file\.mjs does not exist/),
    );
    await assert.rejects(createSystem("./test/fixtures/systems"), configError(/is a folder/));
  });

  it("without #name and without a default export, takes the only candidate or asks for one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "membench-mod-"));
    temp.push(dir);
    const url = JSON.stringify(pathToFileURL(keyword).href);
    writeFileSync(join(dir, "one.mjs"), `export { KeywordSystem } from ${url};\nexport const version = 1;\n`);
    writeFileSync(join(dir, "two.mjs"), `export { KeywordSystem, makeKeywordSystem } from ${url};\n`);
    writeFileSync(join(dir, "none.mjs"), "export const version = 1;\n");
    writeFileSync(join(dir, "syntax.mjs"), "export const = ;\n");
    assert.equal((await createSystem(join(dir, "one.mjs"))).id, "keyword");
    await assert.rejects(
      createSystem(join(dir, "two.mjs")),
      configError(
        /exports several candidates \(KeywordSystem, makeKeywordSystem\); name one: .*two\.mjs#KeywordSystem/,
      ),
    );
    await assert.rejects(createSystem(join(dir, "none.mjs")), configError(/exports no SystemDefinition.*version/));
    await assert.rejects(createSystem(join(dir, "syntax.mjs")), (error: unknown) => {
      assert.ok(error instanceof SystemError);
      assert.match(error.message, /cannot load .*syntax\.mjs: /);
      return true;
    });
  });

  it("a .ts module loads under tsx; without a TypeScript loader the error says what to do", async () => {
    const leaky = join(fixtures, "leaky-system.ts");
    assert.equal((await createSystem(`${rel(leaky)}#LeakySystem`)).id, "leaky");
    const noLoader = async () => {
      throw Object.assign(new TypeError(`Unknown file extension ".ts" for ${leaky}`), {
        code: "ERR_UNKNOWN_FILE_EXTENSION",
      });
    };
    await assert.rejects(
      loadModuleFile(leaky, "LeakySystem", { id: "leaky", importer: noLoader }),
      configError(
        /leaky-system\.ts is TypeScript and no TypeScript loader is active: compile it to \.js, or run membench under tsx/,
      ),
    );
  });
});

describe("package systems", () => {
  it("resolves package#export from the working directory, ESM-only exports included, and records its version", async () => {
    const project = projectWithPackage();
    const found = resolvePackage("@acme/memory", join(project, "sub", "deeper"));
    assert.equal(found.path, join(project, "node_modules/@acme/memory/dist/index.js"));
    assert.equal(found.version, "1.4.2");
    const [resolved] = await resolveSystems(["@acme/memory#keyword"], { cwd: join(project, "sub") });
    assert.equal(resolved!.label, "keyword");
    assert.deepEqual(resolved!.source, {
      kind: "package",
      name: "@acme/memory",
      export: "keyword",
      version: "1.4.2",
      path: join(project, "node_modules/@acme/memory/dist/index.js"),
    });
    const [sub] = await resolveSystems(["@acme/memory/classes#KeywordSystem"], { cwd: project });
    await assertConformance(() => createSystem(sub!.definition));
  });

  it("says where it looked when the package is not installed, or exports nothing there", () => {
    const project = projectWithPackage();
    assert.throws(
      () => resolvePackage("not-installed-pkg", project),
      configError(/package "not-installed-pkg" is not installed where membench runs \(.*\); install it there/),
    );
    assert.throws(
      () => resolvePackage("@acme/memory/missing", project),
      configError(/package "@acme\/memory" \(.*\) exports nothing at "\.\/missing" for import/),
    );
  });
});
