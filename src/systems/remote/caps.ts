import type { SystemCaps } from "../types.ts";

/**
 * What a hosted memory service offers membench: ranked search over what it
 * extracted, with provenance membench keeps in each memory's metadata, and no
 * readback or native answer unless the service has one (`over`).
 */
export function hostedCaps(over: Partial<SystemCaps> = {}): SystemCaps {
  return { granularity: "session", ranked: true, provenance: true, readback: false, nativeAnswer: false, ...over };
}
