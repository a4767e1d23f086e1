/**
 * Setup the benchmark scorers' tests share: a finished probe record to score,
 * and a scripted model's rule file.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Episode, Probe } from "../../src/core/model.ts";
import type { ProbeRecord } from "../../src/core/record.ts";

/**
 * A done record of `system` for `probe` of `episode` in the default setting,
 * with nothing retrieved and an empty context; `extra` adds the answer (or
 * overrides any field).
 */
export function probeRecord(
  episode: Pick<Episode, "id">,
  probe: Probe,
  extra: Partial<ProbeRecord>,
  system = "test",
): ProbeRecord {
  return {
    unitId: `${system}|${episode.id}`,
    system,
    episodeId: episode.id,
    probeId: probe.id,
    setting: "default",
    question: probe.question,
    labels: probe.labels,
    status: "done",
    retrieved: [],
    context: { text: "", tokens: 0, used: 0 },
    timings: { flushMs: 0, searchMs: 0 },
    ...extra,
  };
}

/** Writes scripted-model `rules` as JSON lines to `dir/name`; returns the file's path. */
export function writeScript(dir: string, rules: object[], name = "script.jsonl"): string {
  const file = join(dir, name);
  writeFileSync(file, rules.map((r) => JSON.stringify(r)).join("\n"));
  return file;
}
