/**
 * Open tasks: for "what tasks remain on my to-do list?", every task told
 * ("I need to book a flight") that no later statement closed ("I finished
 * booking the flight", "remove it from my to-do list"), as one result. Closed
 * tasks are superseded on write (resolve.ts), so the open ones are the task
 * memories that still stand at the question time. Ranking would return the
 * sessions most like the question, which on a to-do question are as often the
 * ones that closed a task as the ones that opened one.
 */
import type { NamespaceIndex } from "./namespace-index.ts";
import type { LedgerStore } from "./store.ts";
import { type Hit, type Memory, USER } from "./types.ts";
import { validAt } from "./validity.ts";
import { viewHit } from "./view-hit.ts";

/** A question about what is still to do. */
const ASKS_OPEN_TASKS =
  /\b(?:to-?do|tasks?)\b.*\b(?:remain|remaining|left|open|pending|still|outstanding)\b|\b(?:remain|remaining|left|open|pending|outstanding)\b.*\b(?:to-?do|tasks?)\b|\bwhat (?:do|should) i (?:still )?(?:need|have) to do\b/i;

export function asksOpenTasks(question: string): boolean {
  return ASKS_OPEN_TASKS.test(question);
}

export interface OpenTasksInput {
  question: string;
  at?: string;
  visible: (sessionId: string) => boolean;
}

/** One result listing the tasks still open at the question time, or undefined. */
export function openTasks(store: LedgerStore, index: NamespaceIndex, input: OpenTasksInput): Hit | undefined {
  if (!asksOpenTasks(input.question)) return undefined;
  const rowids: number[] = [];
  for (const rowid of index.tasks) {
    const h = index.memoryHeads.get(rowid);
    if (h && h.subject === USER && validAt(h, input.at) && input.visible(h.sessionId)) rowids.push(rowid);
  }
  const when = (m: Memory) => m.recordedAt ?? "";
  const tasks = [...store.memoriesByRowid(rowids).values()]
    .map(({ rowid: _r, ...m }) => m)
    .filter((m) => !m.value.startsWith("not "))
    // Newest first: an old task is the likelier to have been done without a word about it.
    .sort((a, b) => (when(a) > when(b) ? -1 : when(a) < when(b) ? 1 : b.seq - a.seq));
  if (!tasks.length) return undefined;
  const lines = [
    `[open tasks] ${tasks.length} told and not since done or dropped`,
    ...tasks.map((m) => `- ${when(m).slice(0, 10) || "undated"}: ${m.value} (session ${m.sessionId})`),
  ];
  return viewHit(lines, tasks, tasks, tasks[0]!.recordedAt);
}
