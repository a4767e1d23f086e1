export * from "./core/index.ts";
export * from "./tokens/index.ts";
