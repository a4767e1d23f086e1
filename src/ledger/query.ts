/**
 * Query analysis for search: the FTS5 match expression, the persons a query names,
 * and whether it is about the user.
 */
import { lexicalTokens } from "../systems/tokenize.ts";

/** Most terms sent to FTS5; the longest are kept, as long words are the rare ones. */
const MAX_TERMS = 24;

export function queryTerms(text: string): string[] {
  const terms = [...new Set(lexicalTokens(text))].filter((t) => t.length > 1 || /\d/.test(t));
  if (terms.length <= MAX_TERMS) return terms;
  return [...terms].sort((a, b) => b.length - a.length || a.localeCompare(b)).slice(0, MAX_TERMS);
}

/** An FTS5 expression matching any of the terms, each quoted so no term is read as syntax. */
export function matchExpression(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");
}

const ABOUT_USER = /\b(?:i|i'm|i've|my|me|mine|myself|you|your|user)\b/i;

export function aboutUser(text: string): boolean {
  return ABOUT_USER.test(text);
}

/** Lowercased words of the query, to match subjects and conditions against. */
export function queryWords(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}
