export * from "./cache.ts";
export * from "./create.ts";
export * from "./hashing.ts";
export * from "./onnx-embedder.ts";
export * from "./openai-embedder.ts";
export * from "./types.ts";
export * from "./use-lite.ts";
