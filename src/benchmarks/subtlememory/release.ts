/**
 * Where SubtleMemory's data lives: plain JSON in the authors' repository
 * (github.com/Yummytanmo/SubtleMemory, `data/subtlememory/`), pinned to the commit we checked it at.
 */
import type { Release, ReleaseFile } from "../types.ts";

const REPO = "Yummytanmo/SubtleMemory";
const COMMIT = "be80b281d034f7d25ca4bbc8e5b9f943b2bd9dd9";
const PERSONAS = Array.from({ length: 10 }, (_, i) => `persona_${i}`);

const files: ReleaseFile[] = PERSONAS.flatMap((persona) =>
  ["history_sessions.json", "bench_instances.json"].map((name) => ({
    url: `https://raw.githubusercontent.com/${REPO}/${COMMIT}/data/subtlememory/${persona}/${name}`,
    path: `${persona}/${name}`,
  })),
);

export const subtlememoryRelease: Release = {
  home: `https://github.com/${REPO}`,
  revision: COMMIT,
  files,
  manual:
    `Clone https://github.com/${REPO} (or download it as a zip), check out ${COMMIT}, ` +
    "and copy the folders data/subtlememory/persona_0 … persona_9 (each holding history_sessions.json " +
    "and bench_instances.json) into the destination folder.",
};
