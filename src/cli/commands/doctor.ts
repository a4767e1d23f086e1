import { resolve } from "node:path";
import type { Command } from "commander";
import { readConfigFile, redact, resolveSetting } from "../../config/settings.ts";
import { packageVersion } from "../../util/paths.ts";

interface DoctorReport {
  node: { version: string; ok: boolean };
  membench: string;
  configFile?: string;
  model: {
    configured: boolean;
    detail: string;
    reachable?: boolean;
    check?: string;
    /** Why the endpoint check failed, in words (refused, DNS, TLS, the key refused…). */
    cause?: string;
    apiKey: string;
  };
  embedder: { spec: string; id: string; dim: number; ready: boolean; offline: boolean; detail: string };
  cacheDir: string;
  skippedOffline: string[];
}

/**
 * The cause of a failed endpoint check in words, with what to do: the
 * connection refused, the host not found (DNS), the TLS handshake, the key
 * refused (401/403), or another HTTP status. `detail` is checkEndpoint's error.
 */
export function endpointCause(detail: string, status?: number): string {
  const has = (re: RegExp) => re.test(detail);
  if (has(/not JSON/)) return "the models list is not JSON: is this an OpenAI-compatible endpoint?";
  if (status === 401 || status === 403)
    return `the key was refused (HTTP ${status}): check MEMBENCH_API_KEY / OPENAI_API_KEY`;
  if (status === 404) return "HTTP 404: the URL answers but has no /models; check that MEMBENCH_BASE_URL ends in /v1";
  if (status !== undefined) return `HTTP ${status}: the endpoint answered with an error`;
  if (has(/ECONNREFUSED/)) return "connection refused: nothing listens at that host and port (is the server running?)";
  if (has(/ENOTFOUND|EAI_AGAIN|EAI_NONAME|getaddrinfo/))
    return "DNS: the host name does not resolve (a typo in MEMBENCH_BASE_URL, or no network)";
  if (has(/CERT|SSL|TLS|EPROTO|self[- ]signed|UNABLE_TO_VERIFY|ERR_TLS/i))
    return "TLS: the secure connection failed (a certificate or protocol problem; http vs https?)";
  if (has(/bad port/)) return "a port fetch refuses to use (bad port): serve the endpoint on another port";
  if (has(/no answer within|ETIMEDOUT|timeout/i)) return "timeout: the endpoint did not answer in time";
  if (has(/ECONNRESET|socket hang up|UND_ERR_SOCKET/)) return "the connection was closed by the other end";
  return "the endpoint could not be reached";
}

/** Gathers what `membench doctor` prints: never throws on a bad setting, reports it instead. */
export async function gatherDoctor(): Promise<DoctorReport> {
  const { DEFAULT_EMBEDDER, describeEmbedder } = await import("../../embed/create.ts");
  const { checkEndpoint, modelConfigured, resolveModelSettings } = await import("../../llm/create.ts");
  const major = Number(process.versions.node.split(".")[0]);
  const file = readConfigFile();
  const input = { file: file.values };
  const status = modelConfigured(input);
  const settings = resolveModelSettings(input);
  const model: DoctorReport["model"] = {
    configured: status.configured,
    detail: status.reason,
    apiKey: redact(settings.apiKey),
  };
  if (status.configured && status.kind === "openai" && status.baseUrl) {
    const check = await checkEndpoint(status.baseUrl, settings.apiKey, 5000);
    model.reachable = check.reachable && !check.error;
    if (check.error) model.cause = endpointCause(check.error, check.status);
    model.check = check.error
      ? check.error
      : `answered in ${Math.round(check.latencyMs)} ms${check.models ? `, ${check.models.length} models listed` : ""}`;
  }
  const spec = resolveSetting("embedder", input).value ?? DEFAULT_EMBEDDER;
  const cacheDir = resolve(settings.cacheDir);
  const embed = await describeEmbedder(spec, {
    cacheDir,
    baseUrl: resolveSetting("embedBaseUrl", input).value ?? settings.baseUrl,
    apiKey: settings.apiKey,
  });
  return {
    node: { version: process.versions.node, ok: major >= 20 },
    membench: packageVersion(),
    configFile: file.path,
    model,
    embedder: {
      spec,
      id: embed.id,
      dim: embed.dim,
      ready: embed.ready,
      offline: embed.offline,
      detail: embed.detail,
    },
    cacheDir,
    skippedOffline: status.configured
      ? []
      : ["answer generation", "LLM judges (accuracy, QA score, rubric checks, AA)", "LLM memory extraction"],
  };
}

/** How many checked things cannot work (an unconfigured model is not one of them). */
export function doctorProblems(r: DoctorReport): number {
  return [!r.node.ok, r.model.reachable === false, !r.embedder.ready].filter(Boolean).length;
}

function formatDoctor(r: DoctorReport): string {
  const mark = (ok: boolean | undefined) => (ok ? "ok  " : "--  ");
  const lines = [
    `${mark(r.node.ok)}node ${r.node.version}${r.node.ok ? "" : " (membench needs Node 20 or later)"}`,
    `ok  membench ${r.membench}${r.configFile ? `, config ${r.configFile}` : ", no membench.config.json"}`,
    `${mark(r.model.configured)}model: ${r.model.detail} (API key ${r.model.apiKey})`,
  ];
  if (r.model.reachable !== undefined)
    lines.push(
      `${mark(r.model.reachable)}  endpoint: ${r.model.cause ? `${r.model.cause} (${r.model.check})` : r.model.check}`,
    );
  lines.push(
    `${mark(r.embedder.ready)}embedder: ${r.embedder.spec} → ${r.embedder.id || "?"}${r.embedder.dim ? ` (${r.embedder.dim} dims)` : ""}, ${r.embedder.offline ? "offline" : "needs its endpoint"}: ${r.embedder.detail}`,
    `ok  cache: ${r.cacheDir}`,
  );
  if (r.skippedOffline.length) {
    lines.push(
      "",
      "No model endpoint is configured: ingestion, retrieval and the retrieval metrics run;",
      `these stages will be reported as skipped: ${r.skippedOffline.join("; ")}.`,
      "Set MEMBENCH_BASE_URL and MEMBENCH_MODEL (and MEMBENCH_API_KEY if the server needs one), or use --llm scripted:FILE.",
    );
  }
  return lines.join("\n");
}

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description("check Node, the model endpoint, the embedder and the cache, and say what will be skipped")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      `
Examples:
  membench doctor
  MEMBENCH_BASE_URL=http://localhost:8000/v1 MEMBENCH_MODEL=qwen3 membench doctor --json

Exits 1 when something set up cannot work: Node older than 20, a configured
endpoint that does not answer (the cause is named: connection refused, DNS,
TLS, the key refused with 401/403, a timeout), an embedder that is not ready.
No model configured is not a failure.`,
    )
    .action(async (opts: { json?: boolean }) => {
      const report = await gatherDoctor();
      process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatDoctor(report)}\n`);
      if (doctorProblems(report)) process.exitCode = 1;
    });
}
