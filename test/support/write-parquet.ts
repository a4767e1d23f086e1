/** The MemoryAgentBench parquet writer lives with the dataset generator; tests use it from here. */
export * from "../../src/synth/memoryagentbench/parquet.ts";
