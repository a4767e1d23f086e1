/**
 * Turns zod failures and structural problems into DataErrors that name the
 * file, the record and the field, so a user can find the bad line.
 */
import type { z } from "zod";
import { DataError } from "./errors.ts";
import { Episode, type EpisodeInput } from "./model.ts";

export interface Where {
  file?: string;
  record?: string;
}

/** Formats a zod issue path as `sessions[3].turns[0].content`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** Parses `value` with `schema`, or throws a DataError for the first issue. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: Where): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more issues)` : "";
  throw new DataError(`${issue?.message ?? "invalid"}${more}`, {
    ...where,
    field: issue ? formatPath(issue.path) || "(root)" : undefined,
  });
}

function assertUnique(ids: string[], kind: string, where: Where): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new DataError(`duplicate ${kind} id "${id}"`, { ...where, field: `${kind}.id` });
    seen.add(id);
  }
}

/**
 * Validates one episode: schema, unique session/turn/probe ids, and probe
 * positions that point at a session of the episode. Evidence ids that do not
 * resolve are returned as warnings: some releases carry them, and it is the
 * inspector's job to report them.
 */
export function validateEpisode(input: EpisodeInput, where: Where): { episode: Episode; warnings: string[] } {
  const record = where.record ?? (typeof input?.id === "string" ? `episode ${input.id}` : undefined);
  const w: Where = { file: where.file, record };
  const episode = parseWith(Episode, input, w);
  assertUnique(
    episode.sessions.map((s) => s.id),
    "session",
    w,
  );
  assertUnique(
    episode.sessions.flatMap((s) => s.turns.map((t) => t.id)),
    "turn",
    w,
  );
  assertUnique(
    episode.probes.map((p) => p.id),
    "probe",
    w,
  );
  const sessionIds = new Set(episode.sessions.map((s) => s.id));
  const turnIds = new Set(episode.sessions.flatMap((s) => s.turns.map((t) => t.id)));
  const warnings: string[] = [];
  for (const probe of episode.probes) {
    const pw = { file: where.file, record: `${record ?? episode.id} probe ${probe.id}` };
    if (probe.position.at !== "end" && !sessionIds.has(probe.position.sessionId)) {
      throw new DataError(`fires at unknown session "${probe.position.sessionId}"`, {
        ...pw,
        field: "position.sessionId",
      });
    }
    for (const id of [...probe.gold.evidenceSessionIds, ...probe.gold.staleSessionIds]) {
      if (!sessionIds.has(id)) warnings.push(`${episode.id}/${probe.id}: evidence session "${id}" not in the history`);
    }
    for (const id of probe.gold.evidenceTurnIds) {
      if (!turnIds.has(id)) warnings.push(`${episode.id}/${probe.id}: evidence turn "${id}" not in the history`);
    }
    const g = probe.gold;
    if (!g.answers.length && !g.wrongAnswers.length && !g.criteria.length && !g.evidenceMemories.length) {
      warnings.push(`${episode.id}/${probe.id}: probe has no gold answer, criteria or evidence memory`);
    }
  }
  return { episode, warnings };
}
