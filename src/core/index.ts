export * from "./errors.ts";
export * from "./ids.ts";
export * from "./model.ts";
export * from "./validate.ts";
