/** `membench report`: one or several run directories → markdown, JSON or a self-contained HTML file. */
import { ConfigError } from "../core/errors.ts";
import { type BuildOptions, buildSections } from "./build.ts";
import { isReportFormat, REPORT_FORMATS, type ReportFormat } from "./formats.ts";
import { reportHtml } from "./html.ts";
import { reportJson } from "./json.ts";
import { reportMarkdown } from "./markdown.ts";
import { loadRun, type RunData } from "./run-data.ts";

export { isReportFormat, REPORT_FORMATS, type ReportFormat } from "./formats.ts";

export interface ReportOptions extends BuildOptions {
  generatedAt?: Date;
}

/** Renders already loaded runs. */
export async function renderRuns(
  runs: readonly RunData[],
  format: ReportFormat,
  options: ReportOptions = {},
): Promise<string> {
  if (!runs.length) throw new ConfigError("name at least one run directory", "runDir");
  if (format === "json") return reportJson(runs);
  const sections = buildSections(runs, options);
  return format === "md"
    ? reportMarkdown(sections, options.generatedAt)
    : reportHtml(sections, runs, options.generatedAt);
}

/** Loads the run directories and renders the report. */
export async function renderReport(
  dirs: readonly string[],
  format: ReportFormat,
  options: ReportOptions = {},
): Promise<string> {
  if (!isReportFormat(format)) {
    throw new ConfigError(`expected one of ${REPORT_FORMATS.join(", ")}, got "${format}"`, "format", "--format");
  }
  return renderRuns(dirs.map(loadRun), format, options);
}
