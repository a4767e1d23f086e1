export { REALMEM_SYNTH_VERSION, type RealMemKnobs, realMemGenerator, realMemKnobs } from "./generator.ts";
export { validateRealMem } from "./validate.ts";
