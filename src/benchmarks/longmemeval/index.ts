export * from "./benchmark.ts";
export * from "./instance.ts";
export * from "./json-array-stream.ts";
export * from "./labels.ts";
export * from "./load.ts";
export * from "./release.ts";
export * from "./string-pool.ts";
