export * from "./benchmark.ts";
export * from "./categories.ts";
export * from "./evidence.ts";
export * from "./load.ts";
export * from "./release.ts";
