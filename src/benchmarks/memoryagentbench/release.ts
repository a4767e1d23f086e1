/**
 * Where `membench data pull` fetches MemoryAgentBench: the four split parquet
 * files of the Hugging Face dataset, pinned to the revision our counts were
 * taken at, plus `entity2id.json`, which the movie recommendation scorer needs
 * to map movie ids to names (the released `_process_recsys_dataset`).
 */
import type { Release } from "../types.ts";
import { SPLITS } from "./sources.ts";

const HOME = "https://huggingface.co/datasets/ai-hyz/MemoryAgentBench";
const REVISION = "7ea066982b140a19337e17e60d45d4076e042faf";

const resolve = (path: string) => `${HOME}/resolve/${REVISION}/${path}`;

export const memoryagentbenchRelease: Release = {
  home: HOME,
  revision: REVISION,
  files: [
    ...SPLITS.map((split) => {
      const path = `data/${split}-00000-of-00001.parquet`;
      return { url: resolve(path), path };
    }),
    { url: resolve("entity2id.json"), path: "entity2id.json" },
  ],
  manual: [
    `Download the four parquet files under data/ of ${HOME} (revision ${REVISION}):`,
    ...SPLITS.map((s) => `  data/${s}-00000-of-00001.parquet`),
    "and entity2id.json (needed to score movie recommendation), keeping that layout in the destination folder.",
    'With Python: huggingface_hub.snapshot_download("ai-hyz/MemoryAgentBench", repo_type="dataset",',
    `  revision="${REVISION}", local_dir="<destination>").`,
    "Then load the folder (or a single split file) with the memoryagentbench loader.",
  ].join("\n"),
};
