/** The formats `report` and `export` write, apart from their renderers so the CLI's help loads neither. */
export const REPORT_FORMATS = ["md", "json", "html"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function isReportFormat(value: string): value is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(value);
}

/** The papers' own evaluators' file shapes (`membench export`). */
export const EXPORT_FORMATS = ["realmem", "subtlememory", "memora"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}
