import assert from "node:assert/strict";

/**
 * Asserts call starts (ms) kept to at most `rps` per second: the whole span is
 * at least (n − 1)/rps, less 15% (a first start that a busy event loop delayed
 * shortens it), and no 300 ms window holds more starts than a
 * rate-limited schedule allows plus one that a busy event loop delayed into it
 * (single gaps jitter on a loaded machine, so they are not checked one by one).
 */
export function assertRate(starts: readonly number[], rps: number): void {
  const t = [...starts].sort((a, b) => a - b);
  const span = t[t.length - 1]! - t[0]!;
  const ideal = ((t.length - 1) / rps) * 1000;
  assert.ok(span >= ideal * 0.85, `${t.length} starts took ${Math.round(span)} ms; at ${rps}/s at least ${ideal} ms`);
  const window = 300;
  const most = Math.max(...t.map((x) => t.filter((y) => y >= x && y < x + window).length));
  assert.ok(most <= Math.ceil((window / 1000) * rps) + 1, `${most} starts within ${window} ms at ${rps}/s`);
}
