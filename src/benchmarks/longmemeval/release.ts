/**
 * Where `membench data pull longmemeval` fetches the release: the cleaned
 * files (2025/09) of the Hugging Face dataset, LongMemEval_m (about 2.7 GB) last.
 */
import type { Release } from "../types.ts";

const REPO = "xiaowu0162/longmemeval-cleaned";
const REVISION = "main";

const FILES = ["longmemeval_s_cleaned.json", "longmemeval_oracle.json", "longmemeval_m_cleaned.json"];

export const longmemevalRelease: Release = {
  home: `https://huggingface.co/datasets/${REPO}`,
  revision: REVISION,
  files: FILES.map((path) => ({ url: `https://huggingface.co/datasets/${REPO}/resolve/${REVISION}/${path}`, path })),
  manual:
    `Download longmemeval_s_cleaned.json (about 277 MB), longmemeval_oracle.json (about 15 MB) and, if you need it, ` +
    `longmemeval_m_cleaned.json (about 2.7 GB) from https://huggingface.co/datasets/${REPO} (Files tab), ` +
    "or with `huggingface-cli download --repo-type dataset xiaowu0162/longmemeval-cleaned`.",
};
