// The viewer's front end. Everything shown comes from datasets, models and
// memory systems, so it is only ever inserted as text nodes (h() below), never
// parsed as markup.

const app = document.getElementById("app");
const statusLine = document.getElementById("status");

/** Children as nodes: nested arrays flattened, empty values dropped, anything else turned into a text node. */
function nodes(children) {
  return children
    .flat(Number.POSITIVE_INFINITY)
    .filter((child) => child !== undefined && child !== null && child !== false)
    .map((child) => (child instanceof Node ? child : document.createTextNode(String(child))));
}

/** Creates an element; string children become text nodes, `on…` props become listeners. */
function h(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...nodes(children));
  return node;
}

/** Replaces a node's content, with the same rules as h(). */
function fill(parent, ...children) {
  parent.replaceChildren(...nodes(children));
}

const enc = encodeURIComponent;

function fmt(value) {
  if (value === undefined || value === null || Number.isNaN(value)) return "–";
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}

function setStatus(text, error = false) {
  statusLine.textContent = text;
  statusLine.className = error ? "error" : "";
}

async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    headers: options.body ? { "Content-Type": "application/json" } : undefined,
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body;
}

function parseHash() {
  const raw = location.hash.replace(/^#/, "") || "/";
  const [path, query = ""] = raw.split("?");
  return { parts: path.split("/").filter(Boolean).map(decodeURIComponent), params: new URLSearchParams(query) };
}

// ------------------------------------------------------------------ runs list

async function showRuns() {
  view.run = undefined;
  const runs = await api("/api/runs");
  const page = [h("h1", {}, "Runs")];
  if (!runs.length) {
    page.push(h("p", { class: "meta" }, "No run directories (with a config.json) in this folder."));
    fill(app, ...page);
    return;
  }
  page.push(
    h(
      "table",
      { id: "runs-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["run", "benchmark", "created", "systems", "headline"].map((c) => h("th", {}, c)),
        ),
      ),
      h(
        "tbody",
        {},
        runs.map((run) =>
          h(
            "tr",
            { "data-run": run.id },
            h("td", {}, h("a", { href: `#/run/${enc(run.id)}` }, run.id)),
            h("td", {}, run.benchmark ?? "?", run.variant ? ` (${run.variant})` : ""),
            h("td", {}, run.createdAt ?? ""),
            h("td", {}, run.systems.join(", ")),
            h(
              "td",
              {},
              run.rows.map((row) =>
                h(
                  "div",
                  {},
                  `${row.system} / ${row.setting}: `,
                  row.headline ? `${row.headline.metric} ${fmt(row.headline.value)}` : "no metric",
                  ` (n=${row.n})`,
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
  if (runs.length > 1) {
    const select = (id, index) =>
      h(
        "select",
        { id },
        runs.map((run, i) => h("option", { value: run.id, selected: i === index }, run.id)),
      );
    const a = select("diff-a", 0);
    const b = select("diff-b", 1);
    page.push(
      h("h2", {}, "Compare two runs"),
      h(
        "div",
        { class: "filters" },
        h("label", {}, "run A", a),
        h("label", {}, "run B", b),
        h(
          "button",
          {
            id: "diff-go",
            onclick: () => {
              location.hash = `#/diff/${enc(a.value)}/${enc(b.value)}`;
            },
          },
          "Compare",
        ),
      ),
    );
  }
  fill(app, ...page);
}

// ------------------------------------------------------------------ one run

/** What the run page shows now, so a click on a probe only redraws the detail. */
const view = { run: undefined, query: "", key: undefined };

const FILTER_NAMES = ["system", "setting", "outcome", "retrieval", "stage", "text"];
/** The list's order and page live in the address too, so Back returns to the same page of the list. */
const LIST_NAMES = [...FILTER_NAMES, "sort", "order", "page", "size"];
const PAGE_SIZES = [25, 50, 100, 200];
const DEFAULT_PAGE_SIZE = 50;

function listQuery(params, names = LIST_NAMES) {
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    if (value && (names.includes(name) || name.startsWith("label."))) out.set(name, value);
  }
  return out.toString();
}

function runHash(key, query = view.query) {
  const base = `#/run/${enc(view.run.id)}${key ? `/probe/${enc(key)}` : ""}`;
  return query ? `${base}?${query}` : base;
}

async function showRun(id, params, key) {
  const query = listQuery(params);
  if (!view.run || view.run.id !== id || !document.getElementById("probe-list")) {
    view.run = await api(`/api/runs/${enc(id)}`);
    view.query = undefined;
    renderRunPage(params);
  }
  if (view.query !== query) {
    view.query = query;
    document.getElementById("filters").replaceWith(renderFilters(params));
    await loadProbes(params);
  }
  view.key = key;
  await showDetail(key);
}

function renderRunPage(params) {
  const run = view.run;
  fill(
    app,
    h("h1", {}, `Run ${run.id}`),
    h(
      "p",
      { class: "meta" },
      `${run.benchmark}${run.variant ? ` (${run.variant})` : ""} · data ${run.data} · systems ${run.systems.join(", ")} · settings ${run.settings.join(", ")} · ${run.createdAt ?? ""}`,
    ),
    h("p", { class: "meta" }, `model: ${run.model?.detail ?? "none"}`),
    run.missing ? h("p", { class: "warning", id: "missing-scores" }, run.missing) : null,
    h("section", { id: "summary" }),
    h("h2", {}, "Probes"),
    renderFilters(params),
    h(
      "div",
      { class: "layout" },
      h(
        "div",
        { class: "list" },
        h("p", { id: "probe-count", class: "meta" }),
        h("table", { id: "probe-list" }),
        h("div", { id: "pager", class: "pager" }),
      ),
      h("section", { id: "detail", class: "detail" }),
    ),
  );
  renderSummary();
}

/** Metric columns of the results table: the benchmark's headline first, then verdicts, then retrieval at the answer depth. */
function summaryColumns(run) {
  const rows = run.summary?.results ?? [];
  const k = run.retrievalK;
  const wanted = [
    ...(run.headline ? [run.headline.metric] : []),
    ...run.verdictMetrics.map((v) => v.metric),
    "qa_score_norm",
    "task_averaged_accuracy",
    "abstention_accuracy",
    ...(k ? [`recall_any@${k}`, `recall_all@${k}`, `ndcg@${k}`] : []),
    "context_tokens_mean",
  ];
  return [...new Set(wanted)].filter((m) => rows.some((r) => r.metrics[m] !== undefined));
}

function renderSummary() {
  const run = view.run;
  const section = document.getElementById("summary");
  if (!section) return;
  const rows = run.summary?.results ?? [];
  const columns = summaryColumns(run);
  const table = h(
    "table",
    { id: "summary-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        [
          "system",
          "setting",
          "n",
          ...columns.map((c) => (c === run.headline?.metric ? `${c} (headline)` : c)),
          ...(run.judged ? ["judge failures"] : []),
          "skipped",
        ].map((c) => h("th", {}, c)),
      ),
    ),
    h(
      "tbody",
      {},
      rows.map((row) =>
        h(
          "tr",
          { "data-system": row.system, "data-setting": row.setting },
          h("td", {}, row.system),
          h("td", {}, row.setting),
          h("td", { class: "num" }, String(row.n)),
          columns.map((m) => {
            const ci = row.ci?.[m];
            return h(
              "td",
              { class: "num", "data-metric": m },
              fmt(row.metrics[m]),
              ci ? h("span", { class: "meta" }, ` [${fmt(ci[0])}, ${fmt(ci[1])}]`) : null,
            );
          }),
          run.judged ? h("td", { class: "num" }, String(row.judge_failures ?? 0)) : null,
          h("td", {}, row.skipped.map((s) => `${s}: ${row.skipReasons[s] ?? ""}`).join("; ")),
        ),
      ),
    ),
  );
  fill(
    section,
    h("h2", {}, "Results"),
    table,
    run.overrides ? h("p", { class: "meta" }, "Scores include manual overrides (see the drill-down).") : null,
    run.readOnly ? h("p", { class: "meta", id: "read-only-note" }, `Read-only run: ${run.readOnly}.`) : null,
    run.headline
      ? h(
          "p",
          { class: "meta", id: "headline-note" },
          `Headline: ${run.headline.label}${run.headline.label === run.headline.metric ? "" : ` (${run.headline.metric})`}, the metric the report and membench compare use for this run.`,
        )
      : null,
    renderByLabel(rows, columns[0]),
    renderPaperTables(),
  );
}

function renderByLabel(rows, metric) {
  if (!metric || !rows.length) return null;
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.byLabel ?? {})))].sort();
  if (!keys.length) return null;
  return h(
    "details",
    {},
    h("summary", {}, `${metric} by label`),
    keys.map((key) => {
      const values = [...new Set(rows.flatMap((r) => Object.keys(r.byLabel?.[key] ?? {})))].sort();
      return h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, key),
            rows.map((r) => h("th", {}, `${r.system} / ${r.setting}`)),
          ),
        ),
        h(
          "tbody",
          {},
          values.map((value) =>
            h(
              "tr",
              {},
              h("td", {}, value),
              rows.map((r) => {
                const cell = r.byLabel?.[key]?.[value];
                return h("td", { class: "num" }, cell ? `${fmt(cell[metric])} (n=${cell.n})` : "–");
              }),
            ),
          ),
        ),
      );
    }),
  );
}

/** One table as the report lays it out (format.ts tableGrid): reported rows beside ours, CIs, notes. */
function renderGrid(grid) {
  return [
    h("h3", {}, grid.title),
    grid.sources.length ? h("p", { class: "meta" }, `${grid.sourceLabel}: ${grid.sources.join("; ")}.`) : null,
    h(
      "table",
      { class: "paper-table", "data-table": grid.id },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          grid.header.map((c) => h("th", {}, c)),
        ),
      ),
      h(
        "tbody",
        {},
        grid.rows.map((row) =>
          h(
            "tr",
            { class: row.kind ?? "" },
            row.cells.map((c, i) => h("td", grid.numeric[i] ? { class: "num" } : {}, c)),
          ),
        ),
      ),
    ),
    grid.notes.map((n) => h("p", { class: "meta" }, n)),
  ];
}

/** The report's merged paper-layout tables, fetched when opened (their CIs take a moment on a large run). */
function renderPaperTables() {
  const body = h("div", { id: "paper-tables-body" }, h("p", { class: "meta" }, "loading…"));
  let loaded = false;
  const box = h(
    "details",
    { id: "paper-tables" },
    h("summary", {}, "Tables in the papers' layout, and retrieval (as in membench report)"),
    body,
  );
  box.addEventListener("toggle", async () => {
    if (!box.open || loaded) return;
    loaded = true;
    try {
      const { tables, retrieval } = await api(`/api/runs/${enc(view.run.id)}/tables`);
      fill(
        body,
        tables.length ? tables.map(renderGrid) : h("p", { class: "meta" }, "This benchmark has no paper tables."),
        retrieval.map(renderGrid),
      );
    } catch (error) {
      loaded = false;
      fill(body, h("p", { class: "warning" }, error.message));
    }
  });
  return box;
}

function renderFilters(params) {
  const run = view.run;
  const select = (name, label, options) =>
    h(
      "label",
      {},
      label,
      h(
        "select",
        { name, id: `filter-${name.replace(/\W/g, "-")}` },
        h("option", { value: "" }, "all"),
        options.map(([value, text]) => h("option", { value, selected: params.get(name) === value }, text ?? value)),
      ),
    );
  const form = h(
    "form",
    { class: "filters", id: "filters" },
    run.systems.length > 1
      ? select(
          "system",
          "system",
          run.systems.map((s) => [s]),
        )
      : null,
    run.settings.length > 1
      ? select(
          "setting",
          "setting",
          run.settings.map((s) => [s]),
        )
      : null,
    select("outcome", "verdict", [["correct"], ["incorrect"], ["unscored"]]),
    select("retrieval", "retrieval", [
      ["hit", "hit (evidence in top k)"],
      ["miss", "miss"],
      ["none", "no evidence labels"],
    ]),
    select("stage", "failure stage", [...Object.entries(run.stages), ["none", "no failure"]]),
    Object.entries(run.labels).map(([key, values]) =>
      select(
        `label.${key}`,
        key,
        values.map((v) => [v]),
      ),
    ),
    h("label", {}, "text", h("input", { name: "text", type: "search", value: params.get("text") ?? "" })),
    h(
      "label",
      {},
      "sort by",
      h(
        "select",
        { name: "sort", id: "filter-sort" },
        [
          ["", "run order"],
          ["probe", "probe"],
          ...(run.systems.length > 1 ? [["system", "system"]] : []),
          ...(run.settings.length > 1 ? [["setting", "setting"]] : []),
          ["verdict", "verdict"],
          ["value", "verdict value"],
          ["retrieval", "retrieval"],
          ["stage", "failure stage"],
          ...Object.keys(run.labels).map((k) => [`label.${k}`, k]),
        ].map(([value, text]) => h("option", { value, selected: (params.get("sort") ?? "") === value }, text)),
      ),
    ),
    h(
      "label",
      {},
      "order",
      h(
        "select",
        { name: "order", id: "filter-order" },
        h("option", { value: "" }, "ascending"),
        h("option", { value: "desc", selected: params.get("order") === "desc" }, "descending"),
      ),
    ),
    h(
      "label",
      {},
      "per page",
      h(
        "select",
        { name: "size", id: "filter-size" },
        PAGE_SIZES.map((n) =>
          h("option", { value: n === DEFAULT_PAGE_SIZE ? "" : String(n), selected: pageSize(params) === n }, String(n)),
        ),
      ),
    ),
  );
  // A new filter or order starts again at page 1.
  const apply = (event) => {
    event.preventDefault();
    const out = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (value) out.set(name, String(value));
    location.hash = runHash(undefined, out.toString());
  };
  form.addEventListener("change", apply);
  form.addEventListener("submit", apply);
  return form;
}

function pageSize(params) {
  const n = Number(params.get("size"));
  return PAGE_SIZES.includes(n) ? n : DEFAULT_PAGE_SIZE;
}

/** One page of the filtered, sorted probe list, and the pager under it. */
async function loadProbes(params = new URLSearchParams(view.query)) {
  const run = view.run;
  const size = pageSize(params);
  const wanted = Math.max(1, Math.floor(Number(params.get("page"))) || 1);
  const query = listQuery(params, [...FILTER_NAMES, "sort", "order"]);
  let data = await api(`/api/runs/${enc(run.id)}/probes?${query}&limit=${size}&offset=${(wanted - 1) * size}`);
  const pages = Math.max(1, Math.ceil(data.total / size));
  // A page past the end (the filter left fewer rows): show the last one.
  if (wanted > pages)
    data = await api(`/api/runs/${enc(run.id)}/probes?${query}&limit=${size}&offset=${(pages - 1) * size}`);
  const page = Math.min(wanted, pages);
  const first = data.total ? data.offset + 1 : 0;
  document.getElementById("probe-count").textContent =
    `${first}–${data.offset + data.rows.length} of ${data.total} probe records` +
    (data.total < run.probes ? ` (${run.probes} in the run before filters)` : "");
  renderPager(params, page, pages);
  const labelKeys = Object.keys(run.labels);
  const columns = ["system", "setting"].filter((c) => run[`${c}s`].length > 1);
  fill(
    document.getElementById("probe-list"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["probe", ...columns, ...labelKeys, "question", "verdict", "retrieval", "stage"].map((c) => h("th", {}, c)),
      ),
    ),
    h(
      "tbody",
      {},
      data.rows.map((row) =>
        h(
          "tr",
          {
            "data-key": row.key,
            "data-outcome": row.outcome,
            class: row.key === view.key ? "selected" : "",
            onclick: () => {
              location.hash = runHash(row.key);
            },
          },
          h("td", {}, row.probeId),
          columns.map((c) => h("td", {}, row[c])),
          labelKeys.map((k) => h("td", {}, row.labels[k] ?? "")),
          h(
            "td",
            { class: "question-cell" },
            row.question.length > 140 ? `${row.question.slice(0, 140)}…` : row.question,
          ),
          h(
            "td",
            { class: row.outcome },
            row.outcome === "unscored" ? "unscored" : `${row.outcome} ${fmt(row.value)}`,
            row.overridden ? " ✎" : "",
          ),
          h("td", {}, row.retrieval),
          h("td", {}, row.stage ? run.stages[row.stage] : ""),
        ),
      ),
    ),
  );
}

function renderPager(params, page, pages) {
  const go = (n) => {
    const next = new URLSearchParams(listQuery(params));
    if (n > 1) next.set("page", String(n));
    else next.delete("page");
    return runHash(undefined, next.toString());
  };
  const link = (id, text, n, enabled) =>
    enabled ? h("a", { id, href: go(n), class: "button" }, text) : h("span", { id, class: "button disabled" }, text);
  fill(
    document.getElementById("pager"),
    link("pager-first", "« first", 1, page > 1),
    link("pager-prev", "‹ previous", page - 1, page > 1),
    h("span", { id: "pager-page" }, `page ${page} of ${pages}`),
    link("pager-next", "next ›", page + 1, page < pages),
    link("pager-last", "last »", pages, page < pages),
  );
}

// ------------------------------------------------------------------ one probe

async function showDetail(key) {
  const box = document.getElementById("detail");
  for (const tr of document.querySelectorAll("#probe-list tbody tr")) {
    tr.classList.toggle("selected", tr.dataset.key === key);
  }
  if (!key) {
    fill(
      box,
      h("p", { class: "meta" }, "Select a probe: question, gold, retrieved items, context, answer and verdicts."),
    );
    return;
  }
  renderDetail(await api(`/api/runs/${enc(view.run.id)}/probes/${enc(key)}`));
  reveal(box);
}

/**
 * Brings a new drill-down into sight: the panel is sticky beside the list, so
 * it is already in view on a wide screen; on a narrow one (list above it) or
 * when opened from an address, scroll to it.
 */
function reveal(box) {
  box.scrollTop = 0;
  const top = box.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight * 0.5) box.scrollIntoView({ block: "start" });
}

function textBlock(id, text) {
  return h("div", { class: "text", id }, text);
}

function list(items) {
  return items.length
    ? h(
        "ul",
        {},
        items.map((i) => h("li", {}, i)),
      )
    : h("p", { class: "meta" }, "none");
}

/** The item's text with the gold evidence turns wrapped in <mark>. */
function highlighted(text, ranges) {
  const out = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) out.push(text.slice(at, start));
    out.push(h("mark", {}, text.slice(start, end)));
    at = end;
  }
  out.push(text.slice(at));
  return h("div", { class: "text" }, out);
}

function renderGold(d) {
  if (d.goldError) return [h("h3", {}, "Gold"), h("p", { class: "warning" }, d.goldError)];
  const g = d.gold;
  if (!g) return [];
  const parts = [h("h3", {}, "Gold"), h("div", { id: "gold-answers" }, list(g.answers))];
  if (g.wrongAnswers.length) parts.push(h("p", { class: "meta" }, "known wrong answers:"), list(g.wrongAnswers));
  if (g.criteria.length) {
    parts.push(
      h("p", { class: "meta" }, "criteria:"),
      list(g.criteria.map((c) => `${c.kind}${c.expected ? ` (${c.expected})` : ""}: ${c.text}`)),
    );
  }
  if (g.evidenceMemories.length) parts.push(h("p", { class: "meta" }, "evidence memories:"), list(g.evidenceMemories));
  if (g.evidenceSessionIds.length) {
    parts.push(h("p", { class: "meta" }, `evidence sessions: ${g.evidenceSessionIds.join(", ")}`));
  }
  if (d.evidenceTurns.length) {
    parts.push(
      h("p", { class: "meta" }, "evidence turns:"),
      list(d.evidenceTurns.map((t) => `${t.id} (${t.speaker ?? t.role}): ${t.content}`)),
    );
  }
  return parts;
}

function renderVerdicts(d) {
  const score = d.score;
  if (!score) return [h("h3", {}, "Verdict"), h("p", { class: "meta" }, "not scored")];
  const v = d.verdict;
  const parts = [h("h3", {}, "Verdict")];
  if (v) {
    parts.push(
      h(
        "p",
        { id: "verdict-line" },
        h("span", { class: v.correct ? "correct" : "incorrect" }, v.correct ? "correct" : "incorrect"),
        ` — ${v.metric} ${fmt(v.value)} of ${v.max}`,
      ),
    );
    if (v.override) {
      parts.push(
        h(
          "p",
          { id: "override-note", class: "warning" },
          `Overridden by a person: ${fmt(v.override.value)} (the scorer gave ${fmt(v.override.previous)}), ${v.override.at ?? ""} — `,
          h("q", {}, v.override.comment),
        ),
      );
    }
  }
  parts.push(
    h(
      "div",
      { id: "judge-verdicts" },
      score.verdicts.length ? null : h("p", { class: "meta" }, "no judge verdicts (string metrics or no judge)"),
      score.verdicts.map((verdict) => {
        const value = verdict.value && typeof verdict.value === "object" ? verdict.value : {};
        const fields = Object.entries(value).filter(([k]) => k !== "reason");
        return h(
          "div",
          { class: "verdict" },
          h(
            "div",
            {},
            h("span", { class: "badge" }, verdict.judge),
            verdict.part ? h("span", { class: "badge" }, verdict.part) : null,
            h("span", { class: "badge" }, `sample ${verdict.sample}`),
            h("span", { class: "badge" }, verdict.template),
            verdict.ok ? null : h("span", { class: "incorrect" }, "unusable verdict"),
          ),
          fields.length ? h("div", {}, fields.map(([k, x]) => `${k}: ${JSON.stringify(x)}`).join(" · ")) : null,
          verdict.ok
            ? h("div", { class: "reason" }, value.reason ?? "")
            : h("div", { class: "reason" }, verdict.failure ?? ""),
        );
      }),
    ),
  );
  const skipped = Object.entries(score.skipped ?? {});
  if (skipped.length) parts.push(h("p", { class: "meta" }, "not scored:"), list(skipped.map(([k, r]) => `${k}: ${r}`)));
  parts.push(
    h(
      "details",
      {},
      h("summary", {}, "all metrics of this probe"),
      list(Object.entries(score.metrics).map(([k, x]) => `${k}: ${fmt(x)}`)),
    ),
  );
  if (v) parts.push(renderOverrideForm(d));
  return parts;
}

function renderOverrideForm(d) {
  const v = d.verdict;
  const key = d.row.key;
  if (view.run.readOnly) {
    return h(
      "div",
      { class: "override-form", id: "override-form" },
      h("h3", {}, "Override the verdict"),
      h("p", { class: "warning", id: "override-unavailable" }, `${view.run.readOnly}.`),
    );
  }
  const value = h("input", {
    id: "override-value",
    type: "number",
    min: v.min,
    max: v.max,
    step: "any",
    value: String(v.value),
  });
  const comment = h("textarea", { id: "override-comment", placeholder: "why (required)" });
  const save = async (target) => {
    try {
      const out = await api(`/api/runs/${enc(view.run.id)}/overrides`, {
        method: "POST",
        body: JSON.stringify({ key, value: target, comment: comment.value }),
      });
      await afterOverride(out, "override saved");
    } catch (error) {
      setStatus(error.message, true);
    }
  };
  const clear = async () => {
    try {
      const out = await api(`/api/runs/${enc(view.run.id)}/overrides?key=${enc(key)}`, {
        method: "DELETE",
        body: "{}",
      });
      await afterOverride(out, "override removed");
    } catch (error) {
      setStatus(error.message, true);
    }
  };
  return h(
    "div",
    { class: "override-form", id: "override-form" },
    h("h3", {}, "Override the verdict"),
    h("label", {}, `${v.metric} (${v.min}–${v.max}) `, value),
    comment,
    h(
      "div",
      { class: "buttons" },
      h("button", { type: "button", id: "override-correct", onclick: () => save(v.max) }, "Mark correct"),
      h("button", { type: "button", id: "override-incorrect", onclick: () => save(v.min) }, "Mark incorrect"),
      h("button", { type: "button", id: "override-save", onclick: () => save(Number(value.value)) }, "Save value"),
      v.override ? h("button", { type: "button", id: "override-clear", onclick: clear }, "Remove override") : null,
    ),
  );
}

async function afterOverride(out, message) {
  view.run.summary = out.summary;
  view.run.overrides = out.overrides;
  renderSummary();
  renderDetail(out.probe);
  await loadProbes();
  setStatus(message);
}

function renderDetail(d) {
  const r = d.record;
  const labels = Object.entries(r.labels).map(([k, v]) => `${k}: ${v}`);
  const retrieved = d.retrieved;
  const box = document.getElementById("detail");
  fill(
    box,
    h("h2", {}, r.probeId),
    h(
      "p",
      { class: "meta" },
      `${r.system} / ${r.setting} · episode ${r.episodeId}${r.time ? ` · asked ${r.time}` : ""}`,
    ),
    labels.length ? h("p", { class: "meta" }, labels.join(" · ")) : null,
    r.status === "skipped" ? h("p", { class: "warning" }, `skipped: ${r.skipReason ?? ""}`) : null,
    h("h3", {}, "Question"),
    textBlock("question", r.question),
    renderGold(d),
    h("h3", {}, "Answer"),
    r.answer !== undefined
      ? textBlock("answer", r.answer)
      : h(
          "p",
          { class: "warning", id: "answer" },
          r.answerError ? `answer failed: ${r.answerError}` : `no answer: ${r.answerSkipped ?? ""}`,
        ),
    renderVerdicts(d),
    h(
      "h3",
      {},
      `Retrieved (${retrieved.length}${d.retrievalK ? `; retrieval ${d.row.retrieval} at k=${d.retrievalK}` : ""})`,
    ),
    h(
      "div",
      { id: "retrieved" },
      retrieved.length ? null : h("p", { class: "meta" }, "nothing was retrieved"),
      retrieved.map((item) =>
        h(
          "div",
          { class: item.evidence ? "item evidence" : "item", "data-rank": item.rank },
          h(
            "div",
            {},
            h("span", { class: "badge" }, `#${item.rank}`),
            h("span", { class: "badge" }, `score ${fmt(item.score)}`),
            item.evidence ? h("span", { class: "badge evidence" }, "evidence") : null,
            item.time ? h("span", { class: "badge" }, item.time) : null,
            item.sessionIds?.length ? h("span", { class: "meta" }, ` sessions ${item.sessionIds.join(", ")}`) : null,
          ),
          highlighted(item.text, item.highlights),
        ),
      ),
    ),
    h("h3", {}, `Context given to the answerer (${r.context.tokens} tokens, ${r.context.used} items)`),
    h("pre", { id: "context" }, r.context.text),
    r.retrieval
      ? h(
          "details",
          {},
          h("summary", {}, "retrieval metrics"),
          list(Object.entries(r.retrieval).map(([k, x]) => `${k}: ${fmt(x)}`)),
        )
      : null,
  );
}

// ------------------------------------------------------------------ two runs

async function showDiff(a, b, params) {
  view.run = undefined;
  const runs = await api("/api/runs");
  const runA = runs.find((r) => r.id === a);
  const runB = runs.find((r) => r.id === b);
  if (!runA || !runB) throw new Error("no such run in this folder");
  // A pair the comparison refuses (no shared system, say) still gets the form to pick systems.
  let comparisons = [];
  let problem;
  try {
    ({ comparisons } = await api(`/api/diff?a=${enc(a)}&b=${enc(b)}&${params}`));
  } catch (error) {
    problem = error.message;
  }
  const choose = (name, label, options) =>
    h(
      "label",
      {},
      label,
      h(
        "select",
        { name, id: `diff-${name}` },
        h("option", { value: "" }, "automatic"),
        options.map((o) => h("option", { value: o, selected: params.get(name) === o }, o)),
      ),
    );
  const form = h(
    "form",
    { class: "filters", id: "diff-options" },
    choose("systemA", `system of ${a}`, runA.systems),
    choose("systemB", `system of ${b}`, runB.systems),
    choose(
      "setting",
      "setting",
      runA.settings.filter((x) => runB.settings.includes(x)),
    ),
  );
  form.addEventListener("change", () => {
    const out = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (value) out.set(name, String(value));
    location.hash = `#/diff/${enc(a)}/${enc(b)}?${out}`;
  });
  fill(
    app,
    h("h1", {}, `${a} (A) vs ${b} (B)`),
    form,
    problem ? h("p", { class: "warning", id: "diff-error" }, problem) : null,
    comparisons.map((c) => renderComparison(c)),
  );
}

function renderComparison(c) {
  const arm = (x) => `${x.run} / ${x.system} (${x.setting})`;
  const cells = (r) => [
    h("td", {}, r.value),
    h("td", { class: "num" }, String(r.n)),
    h("td", { class: "num" }, fmt(r.meanA)),
    h("td", { class: "num" }, fmt(r.meanB)),
    h("td", { class: "num" }, `${r.delta >= 0 ? "+" : ""}${fmt(r.delta)}`),
    h("td", { class: "num" }, `[${fmt(r.ci[0])}, ${fmt(r.ci[1])}]`),
    h("td", { class: "num" }, r.mcnemar ? `${r.mcnemar.onlyA} / ${r.mcnemar.onlyB}` : "–"),
    h("td", { class: "num" }, fmt(r.mcnemar ? r.mcnemar.p : r.pBootstrap)),
    h("td", { class: "num" }, fmt(r.pHolm)),
  ];
  const link = (run, key, value) => h("a", { href: `#/run/${enc(run)}/probe/${enc(key)}` }, fmt(value));
  return h(
    "section",
    { class: "comparison" },
    h("h2", {}, `A = ${arm(c.a)} vs B = ${arm(c.b)}`),
    h(
      "p",
      { class: "meta" },
      `${c.metric} (${c.metricKind === "scored" ? "scored answers" : "retrieval, no scored answers"}; ${c.binary ? "right/wrong" : "graded"}) · ` +
        `${c.aligned} aligned probes (only in A: ${c.onlyInA}, only in B: ${c.onlyInB}) · Δ = B − A with a paired-bootstrap 95% CI`,
    ),
    c.notes.map((note) => h("p", { class: "warning" }, note)),
    h(
      "table",
      { class: "diff-rows" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          [c.label, "n", "A", "B", "Δ", "95% CI", "only A / only B right", "p", "p (Holm)"].map((x) => h("th", {}, x)),
        ),
      ),
      h(
        "tbody",
        {},
        c.rows.map((r) => h("tr", { "data-value": r.value }, cells(r))),
        c.overall ? h("tr", { "data-value": "all", class: "overall" }, cells({ ...c.overall, value: "all" })) : null,
      ),
    ),
    h("h3", {}, `${c.binary ? "Flipped" : "Changed"} probes (${c.changed.length})`),
    c.changed.length
      ? h(
          "table",
          { class: "diff-probes" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["probe", c.label, "question", "A", "B", "change"].map((x) => h("th", {}, x)),
            ),
          ),
          h(
            "tbody",
            {},
            c.changed.map((p) =>
              h(
                "tr",
                { "data-direction": p.direction },
                h("td", {}, p.probeId),
                h("td", {}, p.labels[c.label] ?? ""),
                h("td", { class: "question-cell" }, p.question),
                h("td", { class: "num" }, link(c.a.run, p.keyA, p.a)),
                h("td", { class: "num" }, link(c.b.run, p.keyB, p.b)),
                h("td", {}, p.direction),
              ),
            ),
          ),
        )
      : h("p", { class: "meta" }, "none"),
  );
}

// ------------------------------------------------------------------ routing

async function route() {
  const { parts, params } = parseHash();
  setStatus("loading…");
  try {
    if (parts[0] === "run" && parts[1]) await showRun(parts[1], params, parts[2] === "probe" ? parts[3] : undefined);
    else if (parts[0] === "diff" && parts[1] && parts[2]) await showDiff(parts[1], parts[2], params);
    else await showRuns();
    setStatus("");
  } catch (error) {
    setStatus(error.message, true);
  }
}

window.addEventListener("hashchange", route);
route();
