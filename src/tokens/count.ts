/**
 * Token counting with the o200k encoding (GPT-4o family), used wherever a
 * budget is applied so every budget in membench means the same thing.
 */
import { decode, encode, countTokens as o200kCount } from "gpt-tokenizer/encoding/o200k_base";

export function countTokens(text: string): number {
  return text ? o200kCount(text) : 0;
}

/** Cuts `text` to at most `maxTokens` tokens, keeping the end when `keep` is "tail". */
export function truncateTokens(text: string, maxTokens: number, keep: "head" | "tail" = "head"): string {
  const ids = encode(text);
  if (ids.length <= maxTokens) return text;
  return decode(keep === "head" ? ids.slice(0, maxTokens) : ids.slice(ids.length - maxTokens));
}
