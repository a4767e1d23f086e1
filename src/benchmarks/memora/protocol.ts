/**
 * Memora protocol (arXiv 2604.20006 §4.1, App. E.2; released
 * `evals/agent_eval/memory_to_answer.py`): sessions ingested in order, every
 * question asked at the end at its own date, top-50 memories retrieved
 * (`search_memories(question, limit=50)`), shared answerer. Retrieval recall is
 * measured on memory-evidence sessions and stale@k on forgetting-evidence ones.
 *
 * Two quirks of the released harness can be reproduced (options of the
 * scorer, `stage: "answer"`): `user_agent=drop` keeps the user's turns out of
 * the history, as Track 1's context builder (`build_conversation_context` in
 * `evals/model_eval/model_based_evaluator.py`) does with the release's
 * `user_agent` speaker; `question_date=omit` never tells the system or the
 * answerer the question's date, as neither released track does (both read a
 * `session_date` the questions do not have).
 */
import type { Episode } from "../../core/model.ts";
import { makeProtocol, type ProtocolOptions } from "../shared/protocol.ts";

/** The episode as the released harness shows it under these benchmark options. */
export function memoraReplayed(episode: Episode, options: Record<string, string> = {}): Episode {
  const dropUser = options.user_agent === "drop";
  const omitDate = options.question_date === "omit";
  if (!dropUser && !omitDate) return episode;
  return {
    ...episode,
    sessions: dropUser
      ? episode.sessions.map((s) => ({ ...s, turns: s.turns.filter((t) => t.role !== "user") }))
      : episode.sessions,
    probes: omitDate ? episode.probes.map(({ time: _time, ...probe }) => probe) : episode.probes,
  };
}

export const memoraProtocol = (options?: ProtocolOptions) =>
  makeProtocol(
    {
      depth: 50,
      ks: [10, 20, 50],
      instruction:
        "You are an assistant with access to the user's personal memories. Answer only from those memories, using " +
        "the most recent information when facts changed or were removed, be specific, and do not invent anything " +
        "they do not contain.",
      prepare: (episode) => memoraReplayed(episode, options?.benchmark),
    },
    options,
  );
