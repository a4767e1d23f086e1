/**
 * Renders a vega-lite spec to an SVG string in Node (vega's headless view, no
 * canvas, no browser), so the HTML report needs no script and no network.
 * Vega escapes every text it draws.
 */
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
