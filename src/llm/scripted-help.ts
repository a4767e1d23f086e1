/** The scripted model's file format, for `--help` (kept apart so the help loads nothing else). */
export const SCRIPTED_HELP = `Scripted model (--llm scripted:FILE)
  FILE is JSONL: one rule per line, blank lines and lines starting with # are skipped.
    {"role": "judge", "model": "judge-a", "match": "capital of France", "flags": "i", "reply": "Paris"}
  role   optional: answerer | judge | extractor | retriever | generator; the rule applies to that role only
  model  optional: a model name; with --judges a,b,c each judge is scripted model a, b or c
  match  optional: a regular expression tested against the last user message
  flags  optional: regular expression flags for match, e.g. "i"
  reply  required: a string, or a JSON object/array which is sent as JSON text
  The first rule whose role, model and match all fit answers. A request no rule fits
  fails with an error naming the role, model and message.`;
