export * from "./inspect.ts";
export * from "./pull.ts";
export * from "./run-data.ts";
export * from "./unzip.ts";
