/**
 * Where Memora's data comes from (github.com/geniesinc/Memora, `data/`). The
 * release is ~27.6k JSON files in the repository itself, so `data pull` takes
 * the repository archive at the pinned commit rather than file by file.
 */
import type { Release } from "../types.ts";

export const MEMORA_REPO = "geniesinc/Memora";
export const MEMORA_COMMIT = "a6493188efc836d6511ed5e4163fe3ba87da30ff";

export const memoraRelease: Release = {
  home: `https://github.com/${MEMORA_REPO}`,
  revision: MEMORA_COMMIT,
  files: [
    {
      // Unpacks to Memora-<commit>/; the loader finds data/<duration>/<persona>/ below it.
      url: `https://github.com/${MEMORA_REPO}/archive/${MEMORA_COMMIT}.zip`,
      path: ".",
      unzip: true,
    },
  ],
  manual:
    `Download https://github.com/${MEMORA_REPO}/archive/${MEMORA_COMMIT}.zip (or git clone ` +
    `https://github.com/${MEMORA_REPO} and check out ${MEMORA_COMMIT}) and unpack it. Only its data/ folder is ` +
    "needed: data/{weekly,monthly,quarterly}/<persona>/ with conversations/session_NNNN.json and " +
    "evaluation_questions_<persona>.json for each of the 10 personas (about 115 MB, Apache-2.0). Point membench " +
    "at data/, at one duration folder or at one persona folder.",
};
