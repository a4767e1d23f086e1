/**
 * RealMem data shaped for a bench, written to a temporary folder, never into
 * the project; benches that use it say so in every label.
 *
 * - `replicateRealMem`: several personas' worth from the few at hand: each
 *   persona file copied under a new persona name (`<name>_r2`, `<name>_r3`, …), so
 *   the loader sees distinct episodes with the same sessions and probes ("×N
 *   replicated": the copies are not the release's other personas).
 * - `realmemPrefix`: a persona's first N sessions and the queries in them (a
 *   query's evidence always lies in earlier sessions, so the prefix is complete).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

const USER_FILE = /_dialogues(?:_[^.]*)?\.json$/i;

/** The persona files of a RealMem folder (or the one file given), as the loader finds them at its top level. */
export function realmemPersonaFiles(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path)
    .filter((name) => USER_FILE.test(name))
    .sort()
    .map((name) => join(path, name));
}

/**
 * Writes `copies` copies of every persona file of `source` into `outDir` (the
 * first copy keeps its name) and returns the personas written (the episode ids).
 */
export function replicateRealMem(source: string, copies: number, outDir: string): string[] {
  const written: string[] = [];
  for (const file of realmemPersonaFiles(source)) {
    const raw = readFileSync(file, "utf8");
    const parsed = JSON.parse(raw) as { _metadata?: { person_name?: string } };
    const name = parsed._metadata?.person_name ?? basename(file).replace(USER_FILE, "");
    for (let i = 1; i <= copies; i++) {
      const persona = i === 1 ? name : `${name}_r${i}`;
      if (i === 1) writeFileSync(join(outDir, basename(file)), raw);
      else {
        parsed._metadata = { ...parsed._metadata, person_name: persona };
        writeFileSync(join(outDir, `${persona}_dialogues_256k.json`), JSON.stringify(parsed));
      }
      written.push(persona);
    }
  }
  return written;
}

/** Writes the first `sessions` sessions of the first persona file of `source` into `outDir`; returns the file. */
export function realmemPrefix(source: string, sessions: number, outDir: string): string {
  const file = realmemPersonaFiles(source)[0];
  if (!file) throw new Error(`no RealMem persona file in ${source}`);
  const parsed = JSON.parse(readFileSync(file, "utf8")) as { dialogues: unknown[] };
  parsed.dialogues = parsed.dialogues.slice(0, sessions);
  const out = join(outDir, basename(file));
  writeFileSync(out, JSON.stringify(parsed));
  return out;
}
