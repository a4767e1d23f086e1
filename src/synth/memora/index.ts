export { MEMORA_SYNTH_VERSION, type MemoraKnobs, memoraGenerator, memoraKnobs } from "./generator.ts";
export { validateMemora } from "./validate.ts";
