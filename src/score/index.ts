export * from "./retrieval.ts";
export * from "./stats.ts";
