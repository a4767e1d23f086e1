export * from "./protocol.ts";
export * from "./protocols.ts";
export * from "./record.ts";
export * from "./replay.ts";
export * from "./runner.ts";
export * from "./store.ts";
export * from "./summary.ts";
export * from "./table.ts";
