/**
 * PLACEHOLDER: the HTTP system protocol's client (`--system http:URL[#name]`)
 * is written on its own branch; this file only fixes the export the `--system`
 * resolver calls, so `http:` specs parse and resolve to a clear refusal meanwhile.
 */
import { SystemError } from "../core/errors.ts";
import type { SystemDefinition } from "./definition.ts";

export function httpSystemDefinition(url: string, name?: string): SystemDefinition {
  throw new SystemError(`http systems are not implemented yet (${url})`, name ?? "http", "create");
}
