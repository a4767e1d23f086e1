/**
 * The probe record moved to core/record.ts (benchmarks' scorers read it, below
 * the runner). This path stays for the report's and the CLI's imports.
 */
export * from "../core/record.ts";
