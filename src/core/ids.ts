import { createHash } from "node:crypto";

/** Short, stable content hash used for ids that the data does not provide. */
export function stableHash(...parts: Array<string | number>): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(`${String(p)}\u0000`);
  return h.digest("hex").slice(0, 12);
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
