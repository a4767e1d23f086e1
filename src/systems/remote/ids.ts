/**
 * Names of the remote objects (users, containers, agents) made for namespaces.
 * Each instance adds a random tag, so two runs against one account never share a
 * user, and a name the service would refuse (characters, length) never leaves here.
 */
import { createHash, randomBytes } from "node:crypto";

export function instanceTag(): string {
  return randomBytes(4).toString("hex");
}

/** `prefix-tag-ns`, restricted to [A-Za-z0-9._-] and `maxLength`, a hash keeping shortened names distinct. */
export function remoteName(prefix: string, tag: string, ns: string, maxLength = 100): string {
  const raw = `${prefix}-${tag}-${ns}`;
  const safe = raw.replace(/[^A-Za-z0-9._-]+/g, "_");
  if (safe === raw && safe.length <= maxLength) return safe;
  const hash = createHash("sha256").update(raw).digest("hex").slice(0, 10);
  return `${safe.slice(0, Math.max(1, maxLength - hash.length - 1))}-${hash}`;
}
