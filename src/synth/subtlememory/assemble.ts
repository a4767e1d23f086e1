/**
 * SubtleMemory's user-history assembly (arXiv 2606.05761 §2.3 Stage 5,
 * App. B.5): the sessions of every variant set of a persona on one
 * chronological timeline, the sessions of one set scattered among those of
 * the others (never two of a set side by side when another set can go
 * between), with increasing timestamps spread over a time span.
 */
import type { Rng } from "../rng.ts";

export interface Placed<T> {
  item: T;
  order: number;
  timestamp: string;
}

/**
 * Interleaves the queues: at each step a random queue with sessions left,
 * other than the one just used when possible; each queue keeps its order.
 */
export function interleave<T>(queues: readonly T[][], rng: Rng): T[] {
  const left = queues.map((q) => [...q]);
  const out: T[] = [];
  let last = -1;
  for (;;) {
    const open = left.flatMap((q, i) => (q.length ? [i] : []));
    if (!open.length) return out;
    const others = open.filter((i) => i !== last);
    const pool = others.length ? others : open;
    const size = (i: number) => (left[i] as T[]).length;
    const remaining = open.reduce((n, i) => n + size(i), 0);
    const largest = pool.reduce((a, b) => (size(b) > size(a) ? b : a));
    // A queue holding half of what is left must go now, or its sessions end up side by side;
    // otherwise draw, favouring the longer queues.
    const pick = size(largest) * 2 >= remaining ? largest : rng.weighted(pool, pool.map(size));
    out.push((left[pick] as T[]).shift() as T);
    last = pick;
  }
}

/** `2025-04-01T08:00:00+08:00` → epoch ms and the offset in minutes. */
export function parseStart(start: string): { epoch: number; offset: number } {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})([+-])(\d{2}):(\d{2})$/.exec(start);
  if (!m) throw new RangeError(`expected YYYY-MM-DDTHH:MM:SS+HH:MM, got "${start}"`);
  const offset = (m[2] === "-" ? -1 : 1) * (Number(m[3]) * 60 + Number(m[4]));
  return { epoch: Date.parse(`${m[1]}Z`) - offset * 60_000, offset };
}

/** An instant in the start's UTC offset, as the release writes timestamps. */
export function formatInstant(epoch: number, offset: number): string {
  const local = new Date(epoch + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** Increasing timestamps for `n` sessions within `spanDays` of `start` (whole seconds). */
export function timestamps(n: number, start: string, spanDays: number, rng: Rng): string[] {
  const { epoch, offset } = parseStart(start);
  const span = Math.max(1, Math.floor(spanDays * 86_400));
  const seconds = Array.from({ length: n }, () => Math.floor(rng.float() * span)).sort((a, b) => a - b);
  // Equal draws would give two sessions one instant; push them a second apart.
  for (let i = 1; i < seconds.length; i++)
    if ((seconds[i] as number) <= (seconds[i - 1] as number)) seconds[i] = (seconds[i - 1] as number) + 1;
  return seconds.map((s) => formatInstant(epoch + s * 1000, offset));
}
