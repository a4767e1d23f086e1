/**
 * Finds Memora episode folders: `<duration>/<persona>/` holding
 * `evaluation_questions_<persona>.json` and `conversations/`. A user may name
 * one persona folder, its evaluation file, a duration folder or the whole
 * release (even the unpacked repository archive); the search is recursive.
 */
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { DataError } from "../../core/errors.ts";
import type { LoadContext } from "../shared/context.ts";
import { fileExists, isDirectory } from "../shared/files.ts";

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

function inspectFolder(dir: string, ctx: LoadContext): PersonaFolder | "none" | "descend" {
  const entries = readdirSync(dir, { withFileTypes: true });
  const questionFiles = entries.filter((e) => e.isFile() && QUESTIONS_FILE.test(e.name)).map((e) => e.name);
  const hasConversations = entries.some((e) => e.isDirectory() && e.name === CONVERSATIONS);
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
  if (!fileExists(path)) throw new DataError("no such file or folder", { file: path });
  if (!isDirectory(path)) {
    if (!QUESTIONS_FILE.test(basename(path))) {
      throw new DataError("expected a Memora data folder or an evaluation_questions_<persona>.json file", {
        file: path,
      });
    }
    const found = inspectFolder(dirname(path), ctx);
    if (typeof found === "string") throw new DataError(`no ${CONVERSATIONS}/ folder beside it`, { file: path });
    return [found];
  }
  const out: PersonaFolder[] = [];
  const walk = (dir: string) => {
    const found = inspectFolder(dir, ctx);
    if (typeof found !== "string") {
      out.push(found);
      return;
    }
    const subdirs = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith("."))
      .map((e) => join(dir, e.name));
    for (const sub of subdirs) walk(sub);
  };
  walk(path);
  return out.sort((a, b) => a.dir.localeCompare(b.dir, "en", { numeric: true }));
}
