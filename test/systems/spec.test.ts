import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import {
  applySystemOptions,
  isModulePath,
  parseSystemOption,
  parseSystemSpec,
  parseSystemSpecs,
  splitSpecs,
} from "../../src/systems/spec.ts";

const known = new Set(["bm25", "bm25-session", "ledger", "mem0"]);
const registered = (id: string) => known.has(id);
const parse = (text: string) => parseSystemSpec(text, registered);

function refused(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ConfigError, String(error));
    assert.match(error.message, message);
    return true;
  });
}

describe("--system spec: bases", () => {
  it("a registered id is itself the label", () => {
    assert.deepEqual(parse("ledger"), {
      text: "ledger",
      label: "ledger",
      id: "ledger",
      labelled: false,
      base: { kind: "registered", id: "ledger" },
      options: {},
    });
    assert.deepEqual(parse("  bm25-session ").base, { kind: "registered", id: "bm25-session" });
  });

  it("options JSON makes the label id#{canonical json}, keys sorted at every depth", () => {
    const spec = parse('ledger#{"retrieval":{"weights":{"b":1,"a":2}},"extractor":"llm"}');
    assert.deepEqual(spec.options, { retrieval: { weights: { b: 1, a: 2 } }, extractor: "llm" });
    assert.equal(spec.label, 'ledger#{"extractor":"llm","retrieval":{"weights":{"a":2,"b":1}}}');
    assert.equal(spec.id, "ledger");
    // The same options written differently are the same row.
    assert.equal(parse('ledger#{ "extractor" : "llm", "retrieval":{"weights":{"a":2,"b":1}} }').label, spec.label);
    assert.equal(parse("ledger#{}").label, "ledger", "empty options add nothing to the label");
  });

  it("an explicit label wins and keeps the options out of it", () => {
    const spec = parse('fast=ledger#{"extractor":"offline"}');
    assert.equal(spec.label, "fast");
    assert.equal(spec.labelled, true);
    assert.equal(spec.id, "ledger");
    assert.deepEqual(spec.options, { extractor: "offline" });
    assert.equal(parse("v1.2_a-b=bm25").label, "v1.2_a-b");
  });

  it("module paths: relative, absolute, file: URLs and bare JS/TS file names", () => {
    assert.deepEqual(parse("./my-system.js").base, { kind: "module", path: "./my-system.js" });
    assert.equal(parse("./my-system.js").label, "my-system");
    assert.equal(parse("../lib/sys.mts").label, "sys");
    assert.equal(parse("/abs/systems/mine/index.mjs").label, "mine", "an index file takes its folder's name");
    assert.equal(parse("file:///abs/x.cjs").base.kind, "module");
    assert.deepEqual(parse("plugin.ts").base, { kind: "module", path: "plugin.ts" });
    for (const p of ["./x", "../x", "/x", "x.js", "x.mjs", "x.cjs", "x.ts", "x.mts", "x.cts", "C:\\x\\y.js"]) {
      assert.ok(isModulePath(p), p);
    }
    for (const p of ["ledger", "some-package", "@scope/pkg", "x.json"]) assert.ok(!isModulePath(p), p);
  });

  it("a module's #name is its export and its label; options come after", () => {
    const spec = parse('./systems.mjs#MySystem#{"topK":5}');
    assert.deepEqual(spec.base, { kind: "module", path: "./systems.mjs", exportName: "MySystem" });
    assert.equal(spec.id, "MySystem");
    assert.equal(spec.label, 'MySystem#{"topK":5}');
    assert.equal(parse("./systems.mjs#default").label, "systems");
    refused(() => parse("./systems.mjs#not-an-identifier"), /"not-an-identifier" is not an export name/);
  });

  it("package#export, scoped or with a subpath", () => {
    assert.deepEqual(parse("some-package#createMemory").base, {
      kind: "package",
      name: "some-package",
      exportName: "createMemory",
    });
    assert.equal(parse("some-package#createMemory").label, "createMemory");
    assert.deepEqual(parse("@acme/memory/systems#zepLike").base, {
      kind: "package",
      name: "@acme/memory/systems",
      exportName: "zepLike",
    });
    assert.equal(parse("other=@acme/memory#default").label, "other");
    refused(() => parse("some-package"), /unknown system "some-package"; expected a registered id, a module path/);
  });

  it("http: URLs, with a row name and options", () => {
    const spec = parse("http://127.0.0.1:4180/v1/systems/ledger");
    assert.deepEqual(spec.base, { kind: "http", url: "http://127.0.0.1:4180/v1/systems/ledger" });
    assert.equal(spec.label, "ledger", "short form: the last path segment");
    assert.equal(parse("http://localhost:8080").label, "localhost-8080", "no path: host and port");
    const named = parse('http:https://mem.example.com/api/v1#prod#{"concurrency":4}');
    assert.deepEqual(named.base, { kind: "http", url: "https://mem.example.com/api/v1", name: "prod" });
    assert.deepEqual(named.options, { concurrency: 4 });
    assert.equal(named.label, 'prod#{"concurrency":4}');
    assert.equal(parse("mine=http://h:1/x").label, "mine");
    assert.equal(parse("https://h/x").base.kind, "http");
    refused(() => parse("http:nonsense"), /nonsense is not an http\(s\) URL/);
    refused(() => parse("http:ftp://h/x"), /not an http\(s\) URL/);
    refused(() => parse("http://[bad"), /http:\/\/\[bad is not a URL/);
    refused(() => parse("http://h/x#bad name"), /row name "bad name"/);
  });

  it("refuses what names no system, with the forms a spec can take", () => {
    refused(() => parse(""), /an empty system spec/);
    refused(() => parse("nosuch"), /unknown system "nosuch"; expected a registered id.*membench systems/);
    refused(
      () => parse("ledger#extra"),
      /"ledger" is a registered system and takes no #extra; its options go in #\{…\}/,
    );
    refused(() => parse("a="), /label "a" names no system/);
    refused(() => parse("#{}"), /no system before #/);
    refused(() => parse("bm25#"), /nothing follows #/);
  });

  it("refuses options that are not a JSON object, naming the spec", () => {
    refused(
      () => parse("ledger#{extractor:llm}"),
      /"ledger#\{extractor:llm\}": its options \{extractor:llm\} are not JSON/,
    );
    refused(() => parse('ledger#{"__proto__":{"x":1}}'), /"__proto__" cannot be an option name/);
  });
});

describe("--system lists", () => {
  it("splits at top-level commas only: braces, brackets and quotes keep theirs", () => {
    assert.deepEqual(splitSpecs("bm25, ledger ,,hybrid"), ["bm25", "ledger", "hybrid"]);
    assert.deepEqual(splitSpecs('bm25,ledger#{"a":1,"b":[1,2],"c":{"d":2,"e":3}},x=./s.js'), [
      "bm25",
      'ledger#{"a":1,"b":[1,2],"c":{"d":2,"e":3}}',
      "x=./s.js",
    ]);
    assert.deepEqual(splitSpecs('ledger#{"note":"a, b } c"},bm25'), ['ledger#{"note":"a, b } c"}', "bm25"]);
    assert.deepEqual(splitSpecs('a#{"q":"say \\"hi, there\\""},b'), ['a#{"q":"say \\"hi, there\\""}', "b"]);
  });

  it("takes repeated and comma-separated values, one row each", () => {
    const specs = parseSystemSpecs(["bm25,ledger", 'ledger#{"extractor":"offline"}'], registered);
    assert.deepEqual(
      specs.map((s) => s.label),
      ["bm25", "ledger", 'ledger#{"extractor":"offline"}'],
    );
  });

  it("refuses two systems with one label and says how to label them", () => {
    refused(
      () => parseSystemSpecs(["bm25", "bm25"], registered),
      /two systems would both be labelled "bm25" \("bm25" is given twice\); label each row, e\.g\. --system a=bm25/,
    );
    refused(
      () => parseSystemSpecs(["ledger", "ledger=./my-ledger.js"], registered),
      /both be labelled "ledger" \("ledger" and "ledger=\.\/my-ledger\.js"\)/,
    );
    refused(
      () => parseSystemSpecs(['ledger#{"a":1,"b":2}', 'ledger#{"b":2,"a":1}'], registered),
      /labelled "ledger#\{"a":1,"b":2\}"/,
    );
    assert.equal(parseSystemSpecs(["a=ledger", "b=ledger"], registered).length, 2);
  });
});

describe("--system-option", () => {
  const specs = () => parseSystemSpecs(['ledger,fast=ledger#{"extractor":"offline"},bm25,v1.2=bm25'], registered);

  it("parses the value as JSON when it parses, else keeps the text", () => {
    assert.deepEqual(parseSystemOption("ledger.extractor=llm").value, "llm");
    assert.deepEqual(parseSystemOption("ledger.queryRewrite=true").value, true);
    assert.deepEqual(parseSystemOption("x.k=20").value, 20);
    assert.deepEqual(parseSystemOption('x.k="20"').value, "20");
    assert.deepEqual(parseSystemOption('x.r={"a":[1]}').value, { a: [1] });
    assert.deepEqual(parseSystemOption("x.url=http://h/?a=b").value, "http://h/?a=b", "only the first = splits");
    assert.deepEqual(parseSystemOption("x.empty=").value, "");
    refused(() => parseSystemOption("ledger.extractor"), /expected <label>\.<key>=<value>/);
    refused(() => parseSystemOption("=x"), /expected <label>\.<key>=<value>/);
  });

  it("sets a label's option, nesting dotted keys, without changing labels", () => {
    const out = applySystemOptions(specs(), [
      "fast.retrieval.weights.memoryLexical=1",
      "fast.retrieval.pullComplements=true",
      "v1.2.k1=1.5",
    ]);
    const fast = out.find((s) => s.label === "fast")!;
    assert.deepEqual(fast.options, {
      extractor: "offline",
      retrieval: { weights: { memoryLexical: 1 }, pullComplements: true },
    });
    assert.deepEqual(out.find((s) => s.label === "v1.2")!.options, { k1: 1.5 }, "the longest label wins");
    assert.deepEqual(out.find((s) => s.label === "bm25")!.options, {});
    assert.deepEqual(
      out.map((s) => s.label),
      specs().map((s) => s.label),
    );
  });

  it("an exact label first; otherwise every system with that id", () => {
    const byLabel = applySystemOptions(specs(), ["ledger.extractor=llm"]);
    assert.deepEqual(byLabel.find((s) => s.label === "ledger")!.options, { extractor: "llm" });
    assert.deepEqual(byLabel.find((s) => s.label === "fast")!.options, { extractor: "offline" });
    const byId = applySystemOptions(parseSystemSpecs(["a=ledger,b=ledger"], registered), ["ledger.queryRewrite=true"]);
    assert.deepEqual(
      byId.map((s) => s.options),
      [{ queryRewrite: true }, { queryRewrite: true }],
    );
  });

  it("later assignments win, and the specs given are not changed", () => {
    const given = specs();
    const out = applySystemOptions(given, ["fast.extractor=llm", "fast.extractor=auto"]);
    assert.equal(out.find((s) => s.label === "fast")!.options.extractor, "auto");
    assert.equal(given.find((s) => s.label === "fast")!.options.extractor, "offline");
  });

  it("refuses an unknown target, an empty key, and setting inside a non-object", () => {
    refused(
      () => applySystemOptions(specs(), ["mem0.concurrency=2"]),
      /"mem0\.concurrency=2": no system of this run is labelled by the start of mem0\.concurrency \(systems: ledger, fast, bm25, v1\.2\)/,
    );
    refused(() => applySystemOptions(specs(), ["fast..x=1"]), /has an empty key/);
    refused(() => applySystemOptions(specs(), ["fast.__proto__.x=1"]), /"__proto__" cannot be an option name/);
    refused(
      () => applySystemOptions(specs(), ["fast.extractor.mode=1"]),
      /extractor is already "offline", not an object to set mode in/,
    );
  });
});
