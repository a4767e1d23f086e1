/**
 * A worker thread running USE-lite (see worker-pool.ts). It loads its own copy of the
 * model on the first request and answers `{ id, texts }` with `{ id, vectors }`, or
 * `{ id, error }` when embedding fails (the model cannot load, say).
 */
import { parentPort } from "node:worker_threads";
import { ConfigError } from "../core/errors.ts";
import { embedWithUseLite } from "./use-lite.ts";
import type { WorkerReply, WorkerRequest } from "./worker-pool.ts";

const port = parentPort;
if (!port) throw new Error("use-lite-worker.ts runs only as a worker thread");

// One request at a time: the pool never sends a worker a second before the first is answered.
port.on("message", async ({ id, texts }: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    const vectors = await embedWithUseLite(texts);
    reply = { id, vectors };
    port.postMessage(
      reply,
      vectors.map((v) => v.buffer as ArrayBuffer),
    );
  } catch (e) {
    const error = e as Error;
    reply = {
      id,
      error: {
        name: error.name,
        message: error.message,
        ...(error instanceof ConfigError ? { setting: error.setting } : {}),
      },
    };
    port.postMessage(reply);
  }
});
