/**
 * The empty-context baseline: remembers nothing, so every answer comes from the
 * model's own knowledge. It still keeps track of open namespaces, so a runner bug
 * (ingesting into a namespace it never opened) fails here as it would anywhere.
 */
import { z } from "zod";
import type { SystemDefinition, SystemInfo } from "./definition.ts";
import { checkBatch } from "./history.ts";
import { Namespaces } from "./namespaces.ts";
import { resultLimit } from "./query.ts";
import type { IngestBatch, MemorySystem, Retrieved, SearchQuery, SystemCaps } from "./types.ts";

export class NoneSystem implements MemorySystem {
  readonly id = "none";
  readonly caps: SystemCaps = {
    granularity: "session",
    ranked: true,
    provenance: true,
    readback: true,
    nativeAnswer: false,
  };
  private readonly spaces = new Namespaces<true>(this.id, () => true);

  async open(ns: string): Promise<void> {
    this.spaces.open(ns);
  }

  async ingest(ns: string, batch: IngestBatch): Promise<void> {
    this.spaces.get(ns, "ingest");
    checkBatch(batch, this.id);
  }

  async search(ns: string, q: SearchQuery): Promise<Retrieved[]> {
    this.spaces.get(ns, "search");
    resultLimit(q, this.id);
    return [];
  }

  /** Nothing was written, so nothing is read back. */
  async readback(ns: string, _sessionIds: string[]): Promise<Retrieved[]> {
    this.spaces.get(ns, "readback");
    return [];
  }

  async close(ns: string): Promise<void> {
    this.spaces.close(ns);
  }

  /** `unit: "none"`: it returns nothing, so no retrieval depth can cover its haystack. */
  info(): SystemInfo {
    return { unit: "none" };
  }
}

export const NONE_SYSTEM: SystemDefinition<Record<string, never>> = {
  id: "none",
  summary: "the empty-context baseline: remembers nothing",
  options: z.object({}).strict(),
  create: () => new NoneSystem(),
};
