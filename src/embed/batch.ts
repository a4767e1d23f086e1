/**
 * Batching across callers. Units replayed at once (and the systems within them) each
 * ask for a few vectors at a time: a session's turns, one query. In front of a model
 * that runs one batch at a time per thread, `BatchingEmbedder` queues every caller's
 * texts and hands the model batches of up to `batchSize` texts, taken in arrival order
 * across callers, with at most `concurrency` batches running (one per worker thread).
 * Texts asked for in the same turn of the event loop share a batch.
 */
import type { Embedder } from "./types.ts";

/** Splits `items` into consecutive slices of at most `size` (size ≥ 1). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`batch size must be a positive integer, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface BatchingOptions {
  /** Most texts in one call to the inner embedder (default 64). */
  batchSize?: number;
  /** Calls to the inner embedder at once (default 1). */
  concurrency?: number;
}

interface Request {
  vectors: Float32Array[];
  left: number;
  failed: boolean;
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: unknown) => void;
}

interface Item {
  request: Request;
  index: number;
  text: string;
}

export class BatchingEmbedder implements Embedder {
  readonly inner: Embedder;
  readonly batchSize: number;
  readonly concurrency: number;
  private readonly queue: Item[] = [];
  private running = 0;
  private scheduled = false;

  constructor(inner: Embedder, options: BatchingOptions = {}) {
    this.inner = inner;
    this.batchSize = options.batchSize ?? 64;
    this.concurrency = options.concurrency ?? 1;
    for (const [name, value] of [
      ["batch size", this.batchSize],
      ["concurrency", this.concurrency],
    ] as const) {
      if (!Number.isInteger(value) || value < 1)
        throw new RangeError(`${name} must be a positive integer, got ${value}`);
    }
  }

  get id(): string {
    return this.inner.id;
  }

  get dim(): number {
    return this.inner.dim;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const request: Request = { vectors: new Array(texts.length), left: texts.length, failed: false, resolve, reject };
      texts.forEach((text, index) => {
        this.queue.push({ request, index, text });
      });
      this.schedule();
    });
  }

  /** Stops the inner embedder's threads, if it has any. */
  close(): void {
    (this.inner as { close?: () => void }).close?.();
  }

  /** Starts batches on the next turn, so callers of this turn are gathered first. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.concurrency && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.batchSize);
      this.running++;
      void this.run(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async run(batch: Item[]): Promise<void> {
    // A text asked for twice in one batch (by two callers, or twice by one) is sent once.
    const slot = new Map<string, number>();
    for (const { text } of batch) if (!slot.has(text)) slot.set(text, slot.size);
    let vectors: Float32Array[];
    try {
      vectors = await this.inner.embed([...slot.keys()]);
      if (vectors.length !== slot.size) {
        throw new Error(`embedder ${this.inner.id} returned ${vectors.length} vectors for ${slot.size} texts`);
      }
    } catch (error) {
      for (const { request } of batch) this.fail(request, error);
      return;
    }
    const given = new Set<number>();
    for (const { request, index, text } of batch) {
      if (request.failed) continue;
      const at = slot.get(text)!;
      // Each caller owns its vector: a repeat gets a copy.
      request.vectors[index] = given.has(at) ? vectors[at]!.slice() : vectors[at]!;
      given.add(at);
      if (--request.left === 0) request.resolve(request.vectors);
    }
  }

  /** Fails a request once, and drops its texts still waiting: nobody will read them. */
  private fail(request: Request, error: unknown): void {
    if (request.failed) return;
    request.failed = true;
    request.reject(error);
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i]!.request === request) this.queue.splice(i, 1);
    }
  }
}
