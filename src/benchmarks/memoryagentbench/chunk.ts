/**
 * Chunking of a MemoryAgentBench context into what is memorised, following
 * the released chunker (`utils/eval_other_utils.chunk_text_into_sentences`): split into sentences,
 * then pack whole sentences while the chunk stays within `chunkSize` o200k
 * tokens; an over-long sentence becomes a chunk of its own. Sentences are
 * re-joined with one space, as the reference does.
 *
 * The reference splits sentences with NLTK Punkt; this splitter breaks after
 * `.`, `!` or `?` (optionally followed by closing quotes or brackets) before
 * whitespace, and at blank lines. Chunk boundaries can differ slightly from
 * the reference on abbreviations ("Dr. Smith"); chunk sizes stay within budget.
 */
import { countTokens } from "../../tokens/count.ts";

export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?]["'”’)\]]*)\s+|\n\s*\n/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function chunkText(text: string, chunkSize: number): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const sentence of splitSentences(text)) {
    const n = countTokens(sentence);
    if (size + n > chunkSize && current.length) {
      chunks.push(current.join(" "));
      current = [sentence];
      size = n;
    } else {
      current.push(sentence);
      size += n;
    }
  }
  if (current.length) chunks.push(current.join(" "));
  return chunks;
}
