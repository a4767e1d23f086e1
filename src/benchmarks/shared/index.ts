export * from "./context.ts";
export * from "./fields.ts";
export * from "./files.ts";
export * from "./time.ts";
export * from "./utf8.ts";
