import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { judgeAgreement } from "../../src/score/agreement.ts";

describe("judge agreement", () => {
  it("computes kappa for every rater pair, skipping empty cells", () => {
    const file = join(mkdtempSync(join(tmpdir(), "mb-kappa-")), "labels.csv");
    writeFileSync(file, 'id,judge-a,judge-b,"human"\nq1,yes,yes,yes\nq2,no,yes,no\nq3,yes,yes,\nq4,no,no,no\n');
    const rows = judgeAgreement(file);
    assert.deepEqual(
      rows.map((r) => [r.a, r.b, r.n]),
      [
        ["judge-a", "judge-b", 4],
        ["judge-a", "human", 3],
        ["judge-b", "human", 3],
      ],
    );
    assert.equal(rows[1]!.kappa, 1);
    assert.equal(rows[0]!.agreement, 0.75);
    // a: y n y n ; b: y y y n → po .75, pe = .5*.75 + .5*.25 = .5 → κ .5
    assert.equal(rows[0]!.kappa, 0.5);
  });

  it("names the line of a ragged row", () => {
    const file = join(mkdtempSync(join(tmpdir(), "mb-kappa-")), "labels.csv");
    writeFileSync(file, "id,a,b\nq1,yes\n");
    assert.throws(() => judgeAgreement(file), /line 2: expected 3 cells, got 2/);
  });
});
