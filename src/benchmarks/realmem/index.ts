export * from "./benchmark.ts";
export * from "./episode.ts";
export * from "./labels.ts";
export * from "./load.ts";
export * from "./release.ts";
