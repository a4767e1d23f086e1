export * from "./benchmark.ts";
export * from "./labels.ts";
export * from "./load.ts";
export * from "./release.ts";
export * from "./turn-times.ts";
