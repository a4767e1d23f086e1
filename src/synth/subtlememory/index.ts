export {
  SUBTLEMEMORY_SYNTH_VERSION,
  type SubtleMemoryKnobs,
  subtleMemoryGenerator,
  subtleMemoryKnobs,
} from "./generator.ts";
export { readSeedFile, SEEDS, Seed } from "./seeds.ts";
export { validateSubtleMemory } from "./validate.ts";
