/**
 * Memora's official on-disk format → Dataset. One episode per
 * `<duration>/<persona>/` folder of the release (geniesinc/Memora@a6493188:
 * `data/<period>/<persona>/`; arXiv 2604.20006 App. A–B); the field-level
 * mapping and the quirks it tolerates are in docs/data/memora.md.
 */
import { ConfigError } from "../../core/errors.ts";
import type { Dataset, EpisodeInput } from "../../core/model.ts";
import { LoadContext } from "../shared/context.ts";
import { asRecord, optString } from "../shared/fields.ts";
import { fileSize, readJsonFile } from "../shared/files.ts";
import type { LoadOptions } from "../types.ts";
import { findPersonaFolders, type PersonaFolder } from "./discover.ts";
import { DURATIONS, isDuration, questionPoint } from "./labels.ts";
import { dateRange, readQuestions } from "./questions.ts";
import {
  checkSessionFiles,
  listSessionFiles,
  orderSessions,
  type ReadSession,
  readSession,
  type SessionFile,
} from "./sessions.ts";

export const MEMORA_ID = "memora";

function durationRank(name: string): number {
  const i = (DURATIONS as readonly string[]).indexOf(name);
  return i < 0 ? DURATIONS.length : i;
}

function loadEpisode(folder: PersonaFolder, files: SessionFile[], ctx: LoadContext, tick: (file: string) => void) {
  const { questionsFile: file, duration, persona } = folder;
  const episodeId = `${duration}/${persona}`;
  if (!isDuration(duration)) {
    ctx.issue(`folder "${duration}" is not a Memora duration (${DURATIONS.join(", ")})`, { file: folder.dir });
  }
  if (folder.filePersona !== persona) {
    ctx.issue(`evaluation file names persona "${folder.filePersona}" but sits in folder "${persona}"`, { file });
  }

  ctx.read(file);
  const root = asRecord(readJsonFile(file, ctx), { file, record: "(root)" });
  tick(file);
  const stated = optString(root, "persona", { file, record: "(root)" });
  if (stated !== undefined && stated !== persona) {
    ctx.issue(`persona "${stated}" does not match the folder "${persona}"`, {
      file,
      record: "(root)",
      field: "persona",
    });
  }
  const range = dateRange(root, file);

  if (!files.length) ctx.issue("no session_NNNN.json files", { file: folder.conversationsDir });
  const read: ReadSession[] = [];
  for (const f of files) {
    read.push(readSession(f, persona, ctx));
    tick(f.path);
  }
  const sessions = orderSessions(read, ctx);
  const probes = readQuestions(root, { file, episodeId, duration, persona, endDate: range.end }, ctx);
  const points = probes.flatMap((p) => questionPoint(p.id) ?? []);
  checkSessionFiles(
    read.map((r) => r.number),
    points.length ? Math.max(...points) : undefined,
    folder.conversationsDir,
    ctx,
  );

  const episode: EpisodeInput = {
    id: episodeId,
    benchmark: MEMORA_ID,
    sessions,
    probes,
    labels: { duration, persona },
    ...(range.start || range.end ? { meta: { startDate: range.start, endDate: range.end } } : {}),
  };
  ctx.add(episode, { file, record: `episode ${episodeId}` });
}

/**
 * Loads a persona folder, its evaluation file, a duration folder or a whole
 * release. A variant keeps one duration; without one, the dataset's variant is
 * the duration when only one was found.
 */
export async function loadMemora(path: string, options: LoadOptions = {}): Promise<Dataset> {
  const variant = options.variant;
  if (variant !== undefined && !isDuration(variant)) {
    throw new ConfigError(`unknown Memora variant "${variant}" (expected ${DURATIONS.join(", ")})`, "variant");
  }
  const ctx = new LoadContext(MEMORA_ID, path, options);
  const found = findPersonaFolders(path, ctx);
  const folders = (variant ? found.filter((f) => f.duration === variant) : found).sort(
    (a, b) =>
      durationRank(a.duration) - durationRank(b.duration) || a.dir.localeCompare(b.dir, "en", { numeric: true }),
  );
  const plan = folders.map((folder) => ({ folder, files: listSessionFiles(folder.conversationsDir) }));

  let done = 0;
  let total = 0;
  const onProgress = options.onProgress;
  if (onProgress) {
    for (const { folder, files } of plan) {
      total += fileSize(folder.questionsFile);
      for (const f of files) total += fileSize(f.path);
    }
  }
  const tick = (file: string) => {
    if (!onProgress) return;
    done += fileSize(file);
    onProgress(done, total);
  };

  for (const { folder, files } of plan) loadEpisode(folder, files, ctx, tick);
  const durations = new Set(ctx.episodes.map((e) => e.labels.duration));
  return ctx.dataset(variant ?? (durations.size === 1 ? [...durations][0] : undefined));
}
