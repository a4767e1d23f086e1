/**
 * The HTTP system protocol (docs/http-protocol.md) served for a MemorySystem:
 * the reference server. `membench serve` mounts it at `/v1/systems/ledger`
 * over the store it serves; nothing here knows the ledger.
 *
 * What the protocol asks of a server beyond the system's own contract, kept
 * here: a namespace is used only once opened (404 otherwise, so a client bug
 * shows), and an ingest whose batchId was already applied in the namespace is
 * answered without being applied again, also when the retry arrives while the
 * first attempt is still being written.
 */

import { protocolOpenApi } from "../../systems/http-openapi.ts";
import {
  AnswerBodySchema,
  type CapsAnswer,
  EmptyBodySchema,
  IngestBodySchema,
  PROTOCOL_VERSION,
  ReadbackBodySchema,
  SearchBodySchema,
} from "../../systems/http-protocol.ts";
import type { MemorySystem, Retrieved } from "../../systems/types.ts";
import { RequestError } from "../../util/http-server.ts";
import { parseBody } from "./schemas.ts";

/** The served system's name and version, and what else its caps record (no secrets). */
export interface ServedSystem {
  name: string;
  version: string;
  info?: Record<string, unknown>;
}

export interface ProtocolAnswer {
  status: number;
  body: unknown;
}

const OPERATIONS = "GET caps, GET openapi.json, POST ns/{ns}/open|ingest|flush|search|readback|answer|close";

/** The fields of a result, without undefined ones (what a client may rely on). */
function plain(item: Retrieved): Retrieved {
  return {
    text: item.text,
    score: item.score,
    ...(item.time !== undefined ? { time: item.time } : {}),
    ...(item.sessionIds !== undefined ? { sessionIds: item.sessionIds } : {}),
    ...(item.turnIds !== undefined ? { turnIds: item.turnIds } : {}),
    ...(item.kind !== undefined ? { kind: item.kind } : {}),
    ...(item.meta !== undefined ? { meta: item.meta } : {}),
  };
}

export class SystemProtocolApi {
  /** Open namespaces, each with its ingests by batchId: applied, or being applied. */
  private readonly spaces = new Map<string, Map<string, Promise<void>>>();

  constructor(
    private readonly system: MemorySystem,
    private readonly served: ServedSystem,
    /** Where the routes are mounted, for messages (`/v1/systems/ledger`). */
    private readonly base = "",
  ) {}

  caps(): CapsAnswer {
    return {
      protocolVersion: PROTOCOL_VERSION,
      name: this.served.name,
      version: this.served.version,
      caps: { ...this.system.caps },
      ...(this.served.info ? { info: this.served.info } : {}),
    };
  }

  /** Answers a request to `path` (segments below the base, already percent-decoded). */
  async handle(method: string, path: readonly string[], read: () => Promise<unknown>): Promise<ProtocolAnswer> {
    const [head, ns, operation, ...extra] = path;
    if (method === "GET" && path.length === 1 && head === "caps") return ok(this.caps());
    if (method === "GET" && path.length === 1 && head === "openapi.json") return ok(protocolOpenApi());
    if (method !== "POST" || head !== "ns" || !ns || !operation || extra.length) {
      throw new RequestError(404, `no route ${method} ${this.base}/${path.join("/")}; the protocol's: ${OPERATIONS}`);
    }
    switch (operation) {
      case "open":
        parseBody(EmptyBodySchema, await read());
        await this.system.open(ns);
        if (!this.spaces.has(ns)) this.spaces.set(ns, new Map());
        return ok({ ok: true });
      case "close":
        parseBody(EmptyBodySchema, await read());
        if (this.spaces.has(ns)) {
          await this.system.close(ns);
          this.spaces.delete(ns);
        }
        return ok({ ok: true });
      case "ingest": {
        const body = parseBody(IngestBodySchema, await read());
        return ok(await this.ingest(ns, body.batchId, body.batch));
      }
      case "flush":
        parseBody(EmptyBodySchema, await read());
        this.need(ns);
        await this.system.flush?.(ns);
        return ok({ ok: true });
      case "search": {
        const q = parseBody(SearchBodySchema, await read());
        this.need(ns);
        const results = await this.system.search(ns, { text: q.text, k: q.k, ...(q.time ? { time: q.time } : {}) });
        return ok({ results: results.map(plain) });
      }
      case "readback": {
        const body = parseBody(ReadbackBodySchema, await read());
        this.need(ns);
        if (!this.system.caps.readback || !this.system.readback) throw notServed("readback", "caps.readback");
        return ok({ results: (await this.system.readback(ns, body.sessionIds)).map(plain) });
      }
      case "answer": {
        const { probe } = parseBody(AnswerBodySchema, await read());
        this.need(ns);
        if (!this.system.caps.nativeAnswer || !this.system.answer) throw notServed("answer", "caps.nativeAnswer");
        return ok({ answer: await this.system.answer(ns, probe) });
      }
      default:
        throw new RequestError(404, `no operation "${operation}"; the protocol's: ${OPERATIONS}`);
    }
  }

  private need(ns: string): Map<string, Promise<void>> {
    const applied = this.spaces.get(ns);
    if (!applied) {
      throw new RequestError(
        404,
        `namespace "${ns}" is not open; POST ${this.base}/ns/${encodeURIComponent(ns)}/open first`,
        { field: "ns" },
      );
    }
    return applied;
  }

  private async ingest(ns: string, batchId: string, batch: Parameters<MemorySystem["ingest"]>[1]) {
    const applied = this.need(ns);
    // A retry waits for the attempt before it: done means done; failed means this one applies it.
    for (let prior = applied.get(batchId); prior; prior = applied.get(batchId)) {
      try {
        await prior;
        return { ok: true, duplicate: true };
      } catch {
        if (applied.get(batchId) === prior) applied.delete(batchId);
      }
    }
    const attempt = this.system.ingest(ns, batch);
    applied.set(batchId, attempt);
    try {
      await attempt;
    } catch (error) {
      if (applied.get(batchId) === attempt) applied.delete(batchId);
      throw error;
    }
    return { ok: true };
  }
}

const ok = (body: unknown): ProtocolAnswer => ({ status: 200, body });

function notServed(operation: string, cap: string): RequestError {
  return new RequestError(501, `this system does not serve ${operation} (${cap} is false)`);
}
