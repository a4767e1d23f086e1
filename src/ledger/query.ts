/**
 * Query analysis for search: the terms worth ranking by, the words a query names,
 * and whether it is about the user.
 */
import { lexicalTokens } from "../text/tokenize.ts";

/** Most terms ranked by; the longest are kept, as long words are the rare ones. */
const MAX_TERMS = 24;

export function queryTerms(text: string): string[] {
  const terms = [...new Set(lexicalTokens(text))].filter((t) => t.length > 1 || /\d/.test(t));
  if (terms.length <= MAX_TERMS) return terms;
  return [...terms].sort((a, b) => b.length - a.length || a.localeCompare(b)).slice(0, MAX_TERMS);
}

const ABOUT_USER = /\b(?:i|i'm|i've|my|me|mine|myself|you|your|user)\b/i;

export function aboutUser(text: string): boolean {
  return ABOUT_USER.test(text);
}

/** Lowercased words of the query, to match subjects and conditions against. */
export function queryWords(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}
