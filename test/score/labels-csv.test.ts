/**
 * The labels CSV as spreadsheets write it (csv-parse): a byte-order mark,
 * CRLF line ends, quoted cells with line breaks, commas and doubled quotes.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readLabelsCsv, writeLabelsCsv } from "../../src/score/labels-csv.ts";

const file = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), "mb-labels-")), "labels.csv");
  writeFileSync(path, text);
  return path;
};

describe("labels CSV", () => {
  it("drops a byte-order mark, so the first column is still `id`", () => {
    const t = readLabelsCsv(file("\uFEFFid,group,a,b\r\nq1,bm25/default,yes,no\r\n"));
    assert.deepEqual(t.raters, ["a", "b"]);
    assert.deepEqual(t.items, [{ id: "q1", group: "bm25/default", labels: ["yes", "no"] }]);
  });

  it("reads quoted cells holding line breaks, commas and quotes, and names the right line after them", () => {
    const text = 'id,a,"b, human"\r\n"q1","yes","no\r\n(see the note, ""later"")"\r\nq2,no\r\n';
    const t = readLabelsCsv(file(text.replace("q2,no", "q2,no,yes")));
    assert.deepEqual(t.raters, ["a", "b, human"]);
    assert.equal(t.items[0]!.labels[1], 'no\r\n(see the note, "later")');
    assert.deepEqual(t.items[1], { id: "q2", labels: ["no", "yes"] });
    // The ragged row starts on line 4: the quoted line break counts.
    assert.throws(() => readLabelsCsv(file(text)), /line 4: expected 3 cells, got 2/);
  });

  it("writes what it reads back, line breaks included", () => {
    const path = file("");
    const table = {
      raters: ["judge", "human"],
      items: [
        { id: "q1", group: "a/default", labels: ["yes", 'no,\n"maybe"'] },
        { id: "q2", group: "a/default", labels: [undefined, " yes"] },
      ],
    };
    writeLabelsCsv(path, table);
    assert.deepEqual(readLabelsCsv(path), {
      raters: ["judge", "human"],
      items: [
        { id: "q1", group: "a/default", labels: ["yes", 'no,\n"maybe"'] },
        // The writer quotes a padded cell, and quoted text is kept as it is.
        { id: "q2", group: "a/default", labels: [undefined, " yes"] },
      ],
    });
  });

  it("trims the padding around unquoted cells", () => {
    assert.deepEqual(readLabelsCsv(file("id, a ,b\nq1, yes ,no\n")).items[0]!.labels, ["yes", "no"]);
  });

  it("names the file and line of a malformed quote", () => {
    const path = file('id,a,b\nq1,"yes,no\n');
    assert.throws(
      () => readLabelsCsv(path),
      (e: Error) => e.message.includes(path) && /line \d/.test(e.message),
    );
  });
});
