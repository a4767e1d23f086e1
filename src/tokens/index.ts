export * from "./count.ts";
