export * from "./api.ts";
export * from "./diff.ts";
export * from "./gold.ts";
export * from "./override.ts";
export * from "./probes.ts";
export * from "./runs.ts";
export * from "./server.ts";
export * from "./verdict.ts";
