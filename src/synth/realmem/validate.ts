/**
 * Checks a folder of RealMem user files: labels the benchmark defines
 * (src/benchmarks/realmem/labels.ts), queries shaped as the release defines
 * them (a user turn followed by a reply citing memory), citations of memory
 * points that exist in the cited session and were made before the query (a
 * citation of a later session is a leaked future fact), memory points whose
 * source turn still says them, and a session type that matches the number of
 * cited sessions.
 */
import { relative } from "node:path";
import { CATEGORY_NAMES, MEMORY_TYPES, SESSION_TYPES, TOPIC_NAMES } from "../../benchmarks/realmem/labels.ts";
import { isRealMemUserFile } from "../../benchmarks/realmem/load.ts";
import { isRecord, type Rec } from "../../benchmarks/shared/fields.ts";
import { findFiles, readJsonFile } from "../../benchmarks/shared/files.ts";
import { coverage } from "../text-overlap.ts";
import type { ValidationIssue } from "../types.ts";

/** Share of a memory point's words its source turn must carry. */
export const MIN_SOURCE_COVERAGE = 0.5;

function checkFile(path: string, root: string): ValidationIssue[] {
  const file = relative(root, path);
  const issues: ValidationIssue[] = [];
  let raw: unknown;
  try {
    raw = readJsonFile(path);
  } catch (error) {
    return [{ file, problem: `unreadable: ${(error as Error).message}` }];
  }
  if (!isRecord(raw) || !Array.isArray(raw.dialogues)) return [{ file, problem: "no dialogues array" }];
  const sessions = raw.dialogues.filter(isRecord);
  const position = new Map<string, number>();
  const memories = new Map<string, Set<string>>();
  sessions.forEach((s, i) => {
    position.set(String(s.session_uuid), i);
    memories.set(
      String(s.session_uuid),
      new Set(
        (Array.isArray(s.extracted_memory) ? s.extracted_memory.filter(isRecord) : []).map((m) => String(m.content)),
      ),
    );
  });
  const queryIds = new Set<string>();
  let prevDate = "";
  sessions.forEach((s, i) => {
    const record = `dialogues[${i}] ${String(s.session_identifier)}`;
    const date = String(s.current_time).slice(0, 10);
    if (date < prevDate)
      issues.push({
        file,
        record,
        field: "current_time",
        problem: `dated ${date}, before the session before it (${prevDate})`,
        severity: "warning",
      });
    prevDate = date;
    const turns = Array.isArray(s.dialogue_turns) ? s.dialogue_turns.filter(isRecord) : [];
    turns.forEach((t: Rec, j) => {
      const at = `${record} dialogue_turns[${j}]`;
      if (t.speaker !== "User" && t.speaker !== "Assistant")
        issues.push({ file, record: at, field: "speaker", problem: `unknown speaker "${String(t.speaker)}"` });
      if (t.is_query === true) {
        const id = String(t.query_id);
        if (queryIds.has(id))
          issues.push({ file, record: at, field: "query_id", problem: `duplicate query id "${id}"` });
        queryIds.add(id);
        if (!CATEGORY_NAMES[String(t.category_name)])
          issues.push({
            file,
            record: at,
            field: "category_name",
            problem: `unknown category "${String(t.category_name)}"`,
          });
        if (!TOPIC_NAMES[String(t.topic)])
          issues.push({ file, record: at, field: "topic", problem: `unknown topic "${String(t.topic)}"` });
        const declared = SESSION_TYPES[String(t.session_type)];
        if (!declared)
          issues.push({
            file,
            record: at,
            field: "session_type",
            problem: `unknown session type "${String(t.session_type)}"`,
          });
        const reply = turns[j + 1];
        const used = reply && Array.isArray(reply.memory_used) ? reply.memory_used.filter(isRecord) : [];
        if (t.speaker !== "User" || reply?.speaker !== "Assistant" || !used.length) {
          issues.push({
            file,
            record: at,
            field: "is_query",
            problem: "a query must be a user turn followed by an assistant reply that cites memory",
          });
          return;
        }
        const uuids = new Set(used.map((u) => String(u.session_uuid)));
        if (declared && declared !== (uuids.size === 1 ? "single-session" : "multi-session")) {
          issues.push({
            file,
            record: at,
            field: "session_type",
            problem: `"${String(t.session_type)}" but the reply cites ${uuids.size} session(s)`,
          });
        }
        const listed = Array.isArray(reply.memory_session_uuids) ? reply.memory_session_uuids.map(String) : [];
        if ([...uuids].sort().join() !== [...new Set(listed)].sort().join()) {
          issues.push({
            file,
            record: `${record} dialogue_turns[${j + 1}]`,
            field: "memory_session_uuids",
            problem: "does not list the sessions of memory_used",
          });
        }
        used.forEach((u, k) => {
          const field = `memory_used[${k}]`;
          const where = `${record} dialogue_turns[${j + 1}]`;
          const uuid = String(u.session_uuid);
          const from = position.get(uuid);
          if (from === undefined)
            issues.push({ file, record: where, field, problem: `cites session ${uuid}, which is not in the file` });
          else if (from >= i)
            issues.push({
              file,
              record: where,
              field,
              problem: `cites a memory of session ${uuid}, which comes ${from === i ? "in this very session" : "later"}: a leaked future fact`,
            });
          else if (!memories.get(uuid)?.has(String(u.content))) {
            issues.push({ file, record: where, field, problem: `cites a memory session ${uuid} never extracted` });
          }
        });
      }
    });
    const extracted = Array.isArray(s.extracted_memory) ? s.extracted_memory.filter(isRecord) : [];
    extracted.forEach((m, k) => {
      const at = `${record} extracted_memory[${k}]`;
      if (!MEMORY_TYPES[String(m.type)])
        issues.push({ file, record: at, field: "type", problem: `unknown memory type "${String(m.type)}"` });
      if (m.session_uuid !== s.session_uuid)
        issues.push({ file, record: at, field: "session_uuid", problem: "names another session" });
      const source = typeof m.source_turn === "number" ? m.source_turn : Number.NaN;
      if (source === -1) return;
      const turn = turns[source - 1];
      if (!turn) {
        issues.push({
          file,
          record: at,
          field: "source_turn",
          problem: `turn ${String(m.source_turn)} is not in the session`,
        });
        return;
      }
      if (turn.content !== m.source_content_snapshot)
        issues.push({ file, record: at, field: "source_content_snapshot", problem: `differs from turn ${source}` });
      const share = coverage(String(m.content).replace(/^【[^】]*】/, ""), String(turn.content));
      if (share < MIN_SOURCE_COVERAGE) {
        issues.push({
          file,
          record: at,
          field: "content",
          problem: `its source turn ${source} does not state it (${Math.round(share * 100)}% of its words found)`,
        });
      }
    });
  });
  return issues;
}

export async function validateRealMem(dir: string): Promise<ValidationIssue[]> {
  const files = await findFiles(dir, isRealMemUserFile);
  if (!files.length) return [{ file: ".", problem: "no <Person>_dialogues*.json file" }];
  return files.flatMap((f) => checkFile(f, dir));
}
