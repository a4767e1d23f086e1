import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { ConfigError } from "../../core/errors.ts";
import type { Embedder } from "../../embed/types.ts";
import { DEFAULT_MAX_BODY, DEFAULT_SERVICE_LIMITS } from "../../ledger/service/limits.ts";
import { DEFAULT_HOST, DEFAULT_SERVICE_PORT, isLoopback } from "../../util/http-server.ts";
import { log } from "../../util/log.ts";
import { asText, EMBED_WORKERS_HELP, jsonOption, portOption, untilStopped } from "../options.ts";

interface ServeFlags {
  db: string;
  port: string | number;
  host: string;
  embedder?: string;
  embedWorkers?: string;
  llm?: string;
  ledgerExtractor: string;
  ledgerRetrieval?: string;
  ledgerQueryRewrite?: boolean;
  maxBody: string | number;
  maxTurn: string | number;
  maxSession: string | number;
  maxMemories: string | number;
}

/** A positive whole number of a flag, or a ConfigError naming it. */
function countOption(value: string | number, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new ConfigError(`expected a positive whole number, got "${value}"`, flag, `--${flag}`);
  }
  return n;
}

/** Environment variable holding the bearer token clients must send. */
export const TOKEN_VARIABLE = "MEMBENCH_SERVE_TOKEN";

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("serve the ledger memory engine over HTTP (JSON): add sessions, search, context, history, forget")
    .option("--db <file>", 'SQLite file of the store (":memory:" keeps nothing)', "ledger.sqlite")
    .option("--port <n>", "port to listen on (0: any free port)", asText, DEFAULT_SERVICE_PORT)
    .option("--host <address>", "address to listen on", DEFAULT_HOST)
    .option("--embedder <spec>", "use-lite | hashing[:DIM] | openai:MODEL | onnx:DIR | none (lexical search only)")
    .option("--embed-workers <n>", EMBED_WORKERS_HELP)
    .option("--llm <spec>", "model for extraction and query rewrite: openai, openai:MODEL or scripted:FILE")
    .option(
      "--ledger-extractor <mode>",
      "auto (the model when one is configured), llm or offline (rules, no model)",
      "auto",
    )
    .option("--ledger-retrieval <json>", "retrieval overrides, as for `membench run` (docs/ledger.md)")
    .option("--ledger-query-rewrite", "the model rewrites each search query into extra searches (one call per search)")
    .option("--max-body <MiB>", "largest request body (and record of an import)", asText, DEFAULT_MAX_BODY >> 20)
    .option("--max-turn <chars>", "most characters in one turn", asText, DEFAULT_SERVICE_LIMITS.turnChars)
    .option(
      "--max-session <chars>",
      "most characters of turns in one session",
      asText,
      DEFAULT_SERVICE_LIMITS.sessionChars,
    )
    .option(
      "--max-memories <n>",
      "most memories the extractor may read from one write",
      asText,
      DEFAULT_SERVICE_LIMITS.memoriesPerWrite,
    )
    .addHelpText(
      "after",
      `
Set ${TOKEN_VARIABLE} to require "Authorization: Bearer <token>" on every request;
listening beyond loopback needs it. A request past a limit gets a 413 naming
the field and the limit. The API (docs/serve.md): POST
/v1/namespaces/:ns/sessions, /search, /context; GET /memories/:id, /history,
/export; POST /memories/:id/forget, /import; DELETE /v1/namespaces/:ns.
GET /v1/openapi.json describes them all. The same store speaks the HTTP
system protocol (docs/http-protocol.md) under /v1/systems/ledger, so
\`membench run --system http:http://127.0.0.1:4180/v1/systems/ledger\`
measures the ledger as served.`,
    )
    .addHelpText(
      "after",
      `
Examples:
  membench serve --db ledger.sqlite --port 4180
  MEMBENCH_SERVE_TOKEN=secret membench serve --host 0.0.0.0 --embedder hashing:256`,
    )
    .action(async (flags: ServeFlags) => {
      // Loaded when the command runs, so `--help` loads no SQLite, model or embedder (see main.ts).
      const { LlmExtractor, LlmRelationProposer } = await import("../../ledger/extract/llm.ts");
      const { Ledger } = await import("../../ledger/ledger.ts");
      const { LlmQueryRewriter } = await import("../../ledger/query-rewrite.ts");
      const { startLedgerService } = await import("../../ledger/service/server.ts");
      const { modelConfigured } = await import("../../llm/create.ts");
      const {
        checkLedgerExtractorMode,
        checkLedgerQueryRewrite,
        checkLedgerRetrieval,
        configuredChatModel,
        configuredEmbedder,
      } = await import("../../run/ledger-config.ts");
      const { configuredEmbedWorkers } = await import("../../run/system-context.ts");
      const embedWorkers = flags.embedWorkers === undefined ? undefined : configuredEmbedWorkers(flags.embedWorkers);
      const port = portOption(flags.port);
      const maxBody = Number(flags.maxBody);
      if (!Number.isFinite(maxBody) || maxBody <= 0) {
        throw new ConfigError(`expected a size in MiB, got "${flags.maxBody}"`, "max-body", "--max-body");
      }
      const limits = {
        turnChars: countOption(flags.maxTurn, "max-turn"),
        sessionChars: countOption(flags.maxSession, "max-session"),
        memoriesPerWrite: countOption(flags.maxMemories, "max-memories"),
      };
      const token = process.env[TOKEN_VARIABLE] || undefined;
      if (!isLoopback(flags.host) && !token) {
        throw new ConfigError(
          `listening on ${flags.host} lets anyone who reaches it read and change the store; set ${TOKEN_VARIABLE}`,
          "host",
          "--host",
        );
      }
      const status = modelConfigured({ flags: { llm: flags.llm } });
      const modelStatus = { configured: status.configured, detail: status.reason };
      const mode = checkLedgerExtractorMode(flags.ledgerExtractor, modelStatus);
      checkLedgerQueryRewrite(flags.ledgerQueryRewrite, modelStatus);
      const retrieval = checkLedgerRetrieval(
        flags.ledgerRetrieval === undefined ? undefined : jsonOption(flags.ledgerRetrieval, "ledger-retrieval"),
      );
      const embedder: Embedder | undefined =
        flags.embedder === "none" ? undefined : await configuredEmbedder(flags.embedder, { workers: embedWorkers });
      const model =
        (mode !== "offline" || flags.ledgerQueryRewrite) && status.configured
          ? configuredChatModel(flags.llm)
          : undefined;
      const extracts = model && mode !== "offline" ? model : undefined;
      const db = flags.db === ":memory:" ? flags.db : resolve(flags.db);
      if (db !== ":memory:") mkdirSync(dirname(db), { recursive: true });
      const ledger = new Ledger({
        path: db,
        // A client's turns are never lost to a model failure; the reply says why no memories came.
        onExtractionError: "keep-turns",
        limits,
        ...(embedder ? { embedder } : {}),
        ...(extracts ? { extractor: new LlmExtractor(extracts), proposer: new LlmRelationProposer(extracts) } : {}),
        ...(model && flags.ledgerQueryRewrite ? { rewriter: new LlmQueryRewriter(model) } : {}),
        ...(retrieval ? { retrieval } : {}),
      });
      const extractor = extracts ? `llm (${extracts.id})` : "offline rules";
      const service = await startLedgerService({
        ledger,
        info: {
          store: db,
          ...(embedder ? { embedder: embedder.id } : {}),
          extractor,
          ...(model && flags.ledgerQueryRewrite ? { queryRewrite: `llm (${model.id})` } : {}),
        },
        host: flags.host,
        port,
        maxBody: Math.round(maxBody * 1024 * 1024),
        ...(token ? { token } : {}),
      });
      log.info(
        `membench serve: ${service.url}v1 (store ${db}; ${embedder ? `embedder ${embedder.id}` : "lexical search only"}; memories by ${extractor}${flags.ledgerQueryRewrite ? "; queries rewritten by the model" : ""}${token ? "; bearer token required" : ""}; Ctrl-C to stop)`,
      );
      await untilStopped();
      await service.close().catch(() => undefined);
      ledger.close();
      model?.close();
    });
}
