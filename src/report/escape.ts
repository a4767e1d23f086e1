/**
 * Escaping for everything a report shows that came from a dataset, a model or a
 * memory system (labels, system names, answers, questions, error messages).
 * One helper per output language, used at the point of rendering.
 */

const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text for HTML element content or a quoted attribute value. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => HTML[c] ?? c);
}

/**
 * Text for a markdown table cell or inline prose. Markdown renderers pass raw
 * HTML through, so `<`, `>` and `&` become entities; brackets could start a
 * link; a `|` would end the cell and a line break would end the row.
 */
export function escapeMarkdown(value: unknown): string {
  return String(value ?? "")
    .replace(/[&<>]/g, (c) => HTML[c] ?? c)
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/[[\]]/g, (c) => `\\${c}`)
    .replace(/\s*[\r\n]+\s*/g, " ");
}
