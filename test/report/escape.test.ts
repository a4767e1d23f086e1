import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { escapeHtml, escapeMarkdown } from "../../src/report/escape.ts";

describe("escapeHtml", () => {
  it("turns markup from data into text", () => {
    assert.equal(
      escapeHtml(`<script>alert("x")</script> & 'y'`),
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;",
    );
  });

  it("escapes an already escaped entity again, so it shows as typed", () => {
    assert.equal(escapeHtml("&lt;b&gt;"), "&amp;lt;b&amp;gt;");
  });

  it("renders null, undefined and numbers as text", () => {
    assert.equal(escapeHtml(undefined), "");
    assert.equal(escapeHtml(null), "");
    assert.equal(escapeHtml(0.5), "0.5");
  });
});

describe("escapeMarkdown", () => {
  it("keeps raw HTML from reaching a markdown renderer", () => {
    const out = escapeMarkdown("<script>window.x=1</script>");
    assert.equal(out, "&lt;script&gt;window.x=1&lt;/script&gt;");
    assert.doesNotMatch(out, /</);
  });

  it("keeps a table cell one cell on one line", () => {
    assert.equal(escapeMarkdown("a | b\nc\r\n d"), "a \\| b c d");
  });

  it("stops brackets from forming a link, and a backslash from undoing an escape", () => {
    assert.equal(escapeMarkdown("[x](javascript:alert(1))"), "\\[x\\](javascript:alert(1))");
    assert.equal(escapeMarkdown("\\|"), "\\\\\\|");
  });
});
