export * from "./benchmark.ts";
export * from "./load.ts";
export * from "./parquet.ts";
export * from "./release.ts";
export * from "./row.ts";
export * from "./sources.ts";
