/**
 * Where `membench data pull realmem` fetches the release: the ten user files of
 * AvatarMemory/RealMemBench at the commit our reading of the release was checked against.
 */
import type { Release } from "../types.ts";

const COMMIT = "67afd0891d603adcc4458ff0449df306ef296b7a";

const PERSONAS = [
  "Adeleke_Okonjo",
  "Ethan_Hunt",
  "Kenta_Tanaka",
  "Kim_Ji_young",
  "Liam_O_Connor",
  "Lin_Wanyu",
  "Oliver_Smith",
  "Pak_Budi",
  "Sarah_Miller",
  "Sophie_Dubois",
];

/** Hashes of the files we hold byte-identical copies of. */
const SHA256: Readonly<Record<string, string>> = {
  Kenta_Tanaka: "b8fe2e606db96dbce1ffa0ab7c21b23ce83d4b5d472d80cd4bd23cd8a259d397",
};

export const realmemRelease: Release = {
  home: "https://github.com/AvatarMemory/RealMemBench",
  revision: COMMIT,
  files: PERSONAS.map((persona) => ({
    url: `https://raw.githubusercontent.com/AvatarMemory/RealMemBench/${COMMIT}/dataset/${persona}_dialogues_256k.json`,
    path: `${persona}_dialogues_256k.json`,
    sha256: SHA256[persona],
  })),
  manual:
    "Clone https://github.com/AvatarMemory/RealMemBench (commit 67afd08) and copy the ten " +
    "dataset/<Person>_dialogues_256k.json files (the README says dataset/datasets/, but they sit directly in dataset/). " +
    "The dataset/all_persona_topic/ files are generator seeds and are not needed.",
};
