/**
 * An embedder whose model runs in worker threads, one batch per thread at a time.
 * The offline model is pure computation on one thread (TensorFlow.js on
 * single-threaded WebAssembly); threads let it use more than one core and keep the
 * main thread free for the rest of the run (retrieval, SQLite, the model client).
 * Each thread loads its own copy of the model on first use. Put a BatchingEmbedder
 * with the same concurrency in front, so every thread gets full batches.
 *
 * Idle threads do not keep the process alive; a thread that dies fails the batch it
 * held, and a new one is started for the next.
 */
import { Worker } from "node:worker_threads";
import { ConfigError } from "../core/errors.ts";
import type { Embedder } from "./types.ts";

export interface WorkerRequest {
  id: number;
  texts: string[];
}

export type WorkerReply =
  | { id: number; vectors: Float32Array[] }
  | { id: number; error: { name: string; message: string; setting?: string } };

interface Job {
  id: number;
  texts: string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  job?: Job;
}

export interface WorkerPoolOptions {
  id: string;
  dim: number;
  /** The worker's module: a `.js` file, or a `.ts` one when running from source under tsx. */
  script: URL;
  /** Threads (≥ 1). */
  size: number;
}

/**
 * Starts `script` as a worker. From source (`.ts`), tsx's loader is registered in the
 * worker first: workers do not inherit it. Without tsx, Node is left to run the
 * `.ts` file itself (type stripping).
 */
function startWorker(script: URL): Worker {
  if (!script.pathname.endsWith(".ts")) return new Worker(script);
  let tsx: string;
  try {
    tsx = import.meta.resolve("tsx/esm/api");
  } catch {
    return new Worker(script);
  }
  const code = `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(script.href)}))`;
  return new Worker(code, { eval: true });
}

function toError(error: { name: string; message: string; setting?: string }): Error {
  const e = error.name === "ConfigError" ? new ConfigError("", error.setting ?? "embedder") : new Error();
  e.message = error.message;
  return e;
}

export class WorkerPoolEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  readonly size: number;
  private readonly script: URL;
  private readonly threads: Thread[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 0;

  constructor(options: WorkerPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) {
      throw new RangeError(`worker threads must be a positive integer, got ${options.size}`);
    }
    this.id = options.id;
    this.dim = options.dim;
    this.size = options.size;
    this.script = options.script;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, texts, resolve, reject });
      this.dispatch();
    });
  }

  /** Threads started so far (they start on demand, up to `size`). */
  get started(): number {
    return this.threads.length;
  }

  /** Stops every thread; batches they held fail. The next `embed` starts new ones. */
  close(): void {
    for (const thread of this.threads.splice(0)) {
      thread.job?.reject(new Error(`embedder ${this.id}: closed while embedding`));
      thread.job = undefined;
      void thread.worker.terminate();
    }
    for (const job of this.waiting.splice(0)) job.reject(new Error(`embedder ${this.id}: closed while embedding`));
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      let thread = this.threads.find((t) => !t.job);
      if (!thread && this.threads.length < this.size) thread = this.spawn();
      if (!thread) return;
      const job = this.waiting.shift()!;
      thread.job = job;
      thread.worker.ref();
      thread.worker.postMessage({ id: job.id, texts: job.texts } satisfies WorkerRequest);
    }
  }

  private spawn(): Thread {
    const thread: Thread = { worker: startWorker(this.script) };
    const { worker } = thread;
    worker.unref();
    worker.on("message", (reply: WorkerReply) => {
      const job = thread.job;
      if (!job || job.id !== reply.id) return;
      thread.job = undefined;
      worker.unref();
      if ("error" in reply) job.reject(toError(reply.error));
      else job.resolve(reply.vectors);
      this.dispatch();
    });
    const lost = (error: Error) => {
      const index = this.threads.indexOf(thread);
      if (index < 0) return;
      this.threads.splice(index, 1);
      thread.job?.reject(error);
      thread.job = undefined;
      this.dispatch();
    };
    worker.on("error", (error) =>
      lost(new Error(`embedder ${this.id}: a worker thread failed: ${error.message}`, { cause: error })),
    );
    worker.on("exit", (code) => lost(new Error(`embedder ${this.id}: a worker thread stopped (exit code ${code})`)));
    this.threads.push(thread);
    return thread;
  }
}
