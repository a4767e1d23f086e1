/**
 * Where LoCoMo's data lives: `data/locomo10.zip` in snap-research/locomo,
 * branch `main` at the commit we checked it at. The zip holds
 * one JSON file per conversation; the loader reads them as they unpack.
 */
import type { Release } from "../types.ts";

const REPO = "snap-research/locomo";
const COMMIT = "e76cdff4a04fce19090596d49862fe87a5c15aaa";

export const locomoRelease: Release = {
  home: `https://github.com/${REPO}`,
  revision: COMMIT,
  files: [
    {
      url: `https://raw.githubusercontent.com/${REPO}/${COMMIT}/data/locomo10.zip`,
      path: "locomo10",
      unzip: true,
    },
  ],
  manual:
    `Download data/locomo10.zip from https://github.com/${REPO} (branch main, commit ${COMMIT}) and unzip it ` +
    "into the destination folder (it unpacks to ten files, 26.json … 50.json). The single-file locomo10.json " +
    "circulated elsewhere (an array of conversations with sample_id) loads as well: put it there instead.",
};
