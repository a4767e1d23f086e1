/**
 * Finds Memora episode folders: `<duration>/<persona>/` holding
 * `evaluation_questions_<persona>.json` and `conversations/`. A user may name
 * one persona folder, its evaluation file, a duration folder or the whole
 * release (even the unpacked repository archive); the search is recursive.
 */
import { basename, dirname, join } from "node:path";
import { DataError } from "../../core/errors.ts";
import type { LoadContext } from "../shared/context.ts";
import { type FolderEntry, FolderWalk, listFolder, statPath } from "../shared/files.ts";

export interface PersonaFolder {
  dir: string;
  questionsFile: string;
  conversationsDir: string;
  /** The folder names, which make the episode id. */
  duration: string;
  persona: string;
  /** The persona named by the evaluation file (`evaluation_questions_<persona>.json`). */
  filePersona: string;
}

const QUESTIONS_FILE = /^evaluation_questions_(.+)\.json$/;
const CONVERSATIONS = "conversations";
/** Folders that never hold episodes: the sessions themselves and the harness's outputs. */
const SKIP = new Set([CONVERSATIONS, "eval_results", "node_modules"]);

function inspectFolder(dir: string, entries: FolderEntry[], ctx: LoadContext): PersonaFolder | "descend" {
  const questionFiles = entries.filter((e) => e.kind === "file" && QUESTIONS_FILE.test(e.name)).map((e) => e.name);
  const hasConversations = entries.some((e) => e.kind === "folder" && e.name === CONVERSATIONS);
  if (questionFiles.length > 1) {
    throw new DataError(`several evaluation files in one persona folder: ${questionFiles.join(", ")}`, { file: dir });
  }
  const [questions] = questionFiles;
  if (questions && hasConversations) {
    return {
      dir,
      questionsFile: join(dir, questions),
      conversationsDir: join(dir, CONVERSATIONS),
      duration: basename(dirname(dir)),
      persona: basename(dir),
      filePersona: QUESTIONS_FILE.exec(questions)?.[1] ?? "",
    };
  }
  if (questions) ctx.issue(`has ${questions} but no ${CONVERSATIONS}/ folder`, { file: dir });
  else if (hasConversations)
    ctx.issue(`has ${CONVERSATIONS}/ but no evaluation_questions_<persona>.json`, { file: dir });
  return "descend";
}

/** Every persona folder under `path`, sorted by path. */
export function findPersonaFolders(path: string, ctx: LoadContext): PersonaFolder[] {
  if (!statPath(path).isDirectory()) {
    if (!QUESTIONS_FILE.test(basename(path))) {
      throw new DataError("expected a Memora data folder or an evaluation_questions_<persona>.json file", {
        file: path,
      });
    }
    const found = inspectFolder(dirname(path), listFolder(dirname(path)), ctx);
    if (typeof found === "string") throw new DataError(`no ${CONVERSATIONS}/ folder beside it`, { file: path });
    return [found];
  }
  const out: PersonaFolder[] = [];
  const seen = new FolderWalk();
  const walk = (dir: string) => {
    seen.enter(dir);
    const entries = listFolder(dir);
    const found = inspectFolder(dir, entries, ctx);
    if (typeof found !== "string") {
      out.push(found);
      return;
    }
    for (const e of entries) {
      if (e.kind === "folder" && !SKIP.has(e.name) && !e.name.startsWith(".")) walk(e.path);
    }
  };
  walk(path);
  return out.sort((a, b) => a.dir.localeCompare(b.dir, "en", { numeric: true }));
}
