import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { KeyedQueue } from "../../src/util/keyed-queue.ts";

describe("KeyedQueue", () => {
  it("runs one key's tasks one at a time in arrival order, and other keys alongside", async () => {
    const q = new KeyedQueue();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`${name} start`);
      await sleep(ms);
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([
      q.run("a", task("a1", 30)),
      q.run("a", task("a2", 1)),
      q.run("b", task("b1", 5)),
    ]);
    assert.deepEqual(results, ["a1", "a2", "b1"]);
    // a2 waits for a1 although it is faster; b1 does not wait for a1.
    assert.ok(log.indexOf("a2 start") > log.indexOf("a1 end"));
    assert.ok(log.indexOf("b1 end") < log.indexOf("a1 end"));
  });

  it("a failed task rejects its own caller and does not stop the next", async () => {
    const q = new KeyedQueue();
    const failed = q.run("a", () => {
      throw new Error("boom");
    });
    const next = q.run("a", () => 42);
    await assert.rejects(failed, /boom/);
    assert.equal(await next, 42);
  });

  it("idle waits for every task queued so far", async () => {
    const q = new KeyedQueue();
    let done = false;
    void q.run("a", async () => {
      await sleep(10);
      done = true;
    });
    await q.idle("a");
    assert.equal(done, true);
    await q.idle("never-used");
  });
});
