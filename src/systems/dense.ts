/**
 * Dense retrieval over turns (`dense`) or whole sessions (`dense-session`): each unit
 * is embedded once at ingest, in batches, and kept in memory; a search embeds the
 * query and scores every unit by exact cosine (a dot product, vectors being unit length).
 */
import { z } from "zod";
import { ConfigError, SystemError } from "../core/errors.ts";
import { chunk } from "../embed/batch.ts";
import { type Embedder, normalizeInPlace } from "../embed/types.ts";
import type { SystemDefinition } from "./definition.ts";
import { type Ranker, RetrievalSystem } from "./retrieval-system.ts";
import type { RetrievalUnit, Scored, Unit } from "./units.ts";

export const DEFAULT_EMBED_BATCH = 64;

export interface DenseOptions {
  /** Required; optional in the type only so a missing one is reported as a ConfigError. */
  embedder?: Embedder;
  unit?: RetrievalUnit;
  /** Texts per embedder call at ingest (default 64). */
  batchSize?: number;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** An exact-cosine vector index of units; used alone by `dense` and inside `hybrid`. */
export class DenseRanker implements Ranker {
  private readonly vectors = new Map<string, Float32Array>();

  constructor(
    private readonly embedder: Embedder,
    private readonly systemId: string,
    private readonly batchSize = DEFAULT_EMBED_BATCH,
  ) {}

  async upsert(units: readonly Unit[]): Promise<void> {
    for (const batch of chunk(units, this.batchSize)) {
      const vectors = await this.embedAll(
        batch.map((u) => u.text),
        "ingest",
      );
      batch.forEach((unit, i) => {
        this.vectors.set(unit.key, vectors[i]!);
      });
    }
  }

  async score(text: string): Promise<Scored[]> {
    if (this.vectors.size === 0) return [];
    const [query] = await this.embedAll([text], "search");
    // A query with no content embeds to the zero vector: every cosine is 0, so nothing is ranked.
    if (!query!.some((x) => x !== 0)) return [];
    const out: Scored[] = [];
    for (const [key, vector] of this.vectors) out.push({ key, score: dot(query!, vector) });
    return out;
  }

  /** Unit-length copies, checked for count and dimension, whatever the embedder returns. */
  private async embedAll(texts: string[], operation: string): Promise<Float32Array[]> {
    let vectors: Float32Array[];
    try {
      vectors = await this.embedder.embed(texts);
    } catch (error) {
      throw new SystemError(
        `embedder ${this.embedder.id} failed: ${(error as Error).message}`,
        this.systemId,
        operation,
        {
          cause: error,
        },
      );
    }
    if (vectors.length !== texts.length) {
      throw new SystemError(
        `embedder ${this.embedder.id} returned ${vectors.length} vectors for ${texts.length} texts`,
        this.systemId,
        operation,
      );
    }
    const dim = this.vectors.values().next().value?.length ?? vectors[0]?.length;
    return vectors.map((v) => {
      if (v.length !== dim) {
        throw new SystemError(
          `embedder ${this.embedder.id} returned a vector of length ${v.length}, expected ${dim}`,
          this.systemId,
          operation,
        );
      }
      return normalizeInPlace(Float32Array.from(v));
    });
  }
}

export function requireEmbedder(embedder: Embedder | undefined, systemId: string): Embedder {
  if (!embedder) {
    throw new ConfigError(`system ${systemId} needs an embedder (e.g. createEmbedder("hashing:256"))`, "embedder");
  }
  return embedder;
}

export class DenseSystem extends RetrievalSystem {
  private readonly embedder: Embedder;
  private readonly batchSize: number;

  constructor(options: DenseOptions = {}) {
    const unit = options.unit ?? "turn";
    const id = unit === "session" ? "dense-session" : "dense";
    super(id, unit);
    this.embedder = requireEmbedder(options.embedder, id);
    this.batchSize = options.batchSize ?? DEFAULT_EMBED_BATCH;
  }

  protected createRanker(): Ranker {
    return new DenseRanker(this.embedder, this.id, this.batchSize);
  }
}

export const DENSE_OPTIONS = z
  .object({
    batchSize: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(`texts per embedder call at ingest (default ${DEFAULT_EMBED_BATCH})`),
  })
  .strict();

function denseDefinition(
  id: string,
  unit: RetrievalUnit,
  summary: string,
): SystemDefinition<z.infer<typeof DENSE_OPTIONS>> {
  return {
    id,
    summary,
    options: DENSE_OPTIONS,
    needsEmbedder: () => true,
    create: async (options, context) => new DenseSystem({ ...options, unit, embedder: await context.embedder() }),
  };
}

export const DENSE_SYSTEM = denseDefinition("dense", "turn", "exact cosine over turns");
export const DENSE_SESSION_SYSTEM = denseDefinition("dense-session", "session", "exact cosine over whole sessions");
