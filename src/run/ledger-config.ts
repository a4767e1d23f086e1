/**
 * The ledger's own flags. `membench run` keeps `--ledger-extractor`,
 * `--ledger-retrieval` and `--ledger-query-rewrite` as aliases of
 * `--system-option ledger.…` (the ledger system's schema checks them like any
 * option); `membench serve`, which serves one ledger and no other system, still
 * checks them here. Runs started before systems took options recorded them as
 * `ledgerExtractor`, `ledgerRetrieval` and `ledgerQueryRewrite`, read here too.
 */
import { ConfigError } from "../core/errors.ts";
import { parseRetrievalOverrides, type RetrievalOverrides } from "../ledger/retrieval-overrides.ts";
import { LEDGER_EXTRACTORS, type LedgerExtractorMode } from "../systems/ledger.ts";

export type { LedgerExtractorMode } from "../systems/ledger.ts";
export { configuredChatModel, configuredEmbedder } from "./system-context.ts";

export const LEDGER_EXTRACTOR_MODES: readonly LedgerExtractorMode[] = LEDGER_EXTRACTORS;

/** The extractor mode, checked: known, and `llm` only with a model configured. */
export function checkLedgerExtractorMode(
  mode: string | undefined,
  model: { configured: boolean; detail: string },
): LedgerExtractorMode {
  const m = (mode ?? "auto") as LedgerExtractorMode;
  if (!LEDGER_EXTRACTOR_MODES.includes(m)) {
    throw new ConfigError(
      `unknown ledger extractor "${mode}"; known: ${LEDGER_EXTRACTOR_MODES.join(", ")}`,
      "ledger-extractor",
      "--ledger-extractor",
    );
  }
  if (m === "llm" && !model.configured) {
    throw new ConfigError(
      `--ledger-extractor llm needs a model (${model.detail})`,
      "ledger-extractor",
      "--ledger-extractor",
    );
  }
  return m;
}

/** `--ledger-query-rewrite` needs a model to rewrite with. */
export function checkLedgerQueryRewrite(on: boolean | undefined, model: { configured: boolean; detail: string }): void {
  if (on && !model.configured) {
    throw new ConfigError(
      `--ledger-query-rewrite needs a model (${model.detail})`,
      "ledger-query-rewrite",
      "--ledger-query-rewrite",
    );
  }
}

/** `--ledger-retrieval`, checked: keys and types of the ledger's retrieval parameters. */
export function checkLedgerRetrieval(value: unknown): RetrievalOverrides | undefined {
  if (value === undefined) return undefined;
  try {
    return parseRetrievalOverrides(value);
  } catch (error) {
    throw new ConfigError(`--ledger-retrieval ${(error as Error).message}`, "ledger-retrieval", "--ledger-retrieval");
  }
}

/** The ledger flags of `membench run`, or the fields old run snapshots recorded them in. */
export interface LedgerFlags {
  ledgerExtractor?: string;
  /** JSON text from the command line, or the object an old snapshot holds. */
  ledgerRetrieval?: unknown;
  ledgerQueryRewrite?: boolean;
}

/** `--ledger-*` as the `--system-option ledger.…` assignments they stand for. */
export function ledgerAliasOptions(flags: LedgerFlags): string[] {
  const out: string[] = [];
  if (flags.ledgerExtractor !== undefined) out.push(`ledger.extractor=${JSON.stringify(flags.ledgerExtractor)}`);
  if (flags.ledgerRetrieval !== undefined) {
    const json =
      typeof flags.ledgerRetrieval === "string" ? flags.ledgerRetrieval : JSON.stringify(flags.ledgerRetrieval);
    try {
      JSON.parse(json);
    } catch (error) {
      throw new ConfigError(
        `expected JSON, got ${JSON.stringify(json)} (${(error as Error).message})`,
        "ledger-retrieval",
        "--ledger-retrieval",
      );
    }
    out.push(`ledger.retrieval=${json}`);
  }
  if (flags.ledgerQueryRewrite) out.push("ledger.queryRewrite=true");
  return out;
}

/**
 * The options an old run (config.json without `systems`) gave its `ledger`:
 * empty when it had none. Its extractor was recorded as `auto` by default.
 */
export function legacyLedgerOptions(systems: readonly string[], old: LedgerFlags): string[] {
  return systems.includes("ledger") ? ledgerAliasOptions(old) : [];
}
