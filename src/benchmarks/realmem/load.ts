/**
 * RealMem loader: a user file, or a folder of them (the release's `dataset/`).
 * The `all_persona_topic/*.json` files beside the user files are the
 * generator's seeds, not episodes, and are skipped.
 */
import type { Dataset } from "../../core/model.ts";
import { LoadContext } from "../shared/context.ts";
import { fileSize, findFiles, readJsonFile } from "../shared/files.ts";
import type { LoadOptions } from "../types.ts";
import { buildRealMemEpisode } from "./episode.ts";

/** `<Person>_dialogues_256k.json`, and other budgets a generator may write (`_dialogues_128k.json`). */
const USER_FILE = /_dialogues(?:_[^.]*)?\.json$/i;
const SEED_FOLDER = /(?:^|[\\/])all_persona_topic[\\/]/;

export function isRealMemUserFile(path: string, name: string): boolean {
  return USER_FILE.test(name) && !SEED_FOLDER.test(path);
}

export async function loadRealMem(path: string, options: LoadOptions = {}): Promise<Dataset> {
  const ctx = new LoadContext("realmem", path, options);
  const files = await findFiles(path, isRealMemUserFile);
  const total = files.reduce((sum, f) => sum + fileSize(f), 0);
  let done = 0;
  for (const file of files) {
    ctx.read(file);
    const episode = buildRealMemEpisode(readJsonFile(file, ctx), file, ctx);
    ctx.add(episode, { file, record: `persona ${episode.id}` });
    done += fileSize(file);
    options.onProgress?.(done, total);
  }
  return ctx.dataset();
}
