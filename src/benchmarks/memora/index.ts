export * from "./benchmark.ts";
export * from "./discover.ts";
export * from "./evidence.ts";
export * from "./labels.ts";
export * from "./load.ts";
export * from "./questions.ts";
export * from "./release.ts";
export * from "./sessions.ts";
