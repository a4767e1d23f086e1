export * from "./inspect.ts";
export * from "./pull.ts";
export * from "./unified.ts";
export * from "./unzip.ts";
