// report.html: one self-contained page. uPlot's script and stylesheet are read from node_modules
// when the page is written and inlined, the model is inlined as JSON, and a Content-Security-Policy
// forbids every network request, so the file works offline from file:// and fetches nothing.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { CLIENT_JS } from './client.js';
import type { ChartSpec, ReportModel, RunHeader } from './model.js';

const require = createRequire(import.meta.url);
let assets: { js: string; css: string } | null = null;

/** uPlot's files, read once (MIT licence; the minified build keeps its licence header). */
function uplotAssets(): { js: string; css: string } {
  assets ??= {
    js: fs.readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
    css: fs.readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  };
  return assets;
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** JSON that cannot close its <script> element. */
function inlineJson(v: unknown): string {
  return JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** An inlined script must not contain "</script"; uPlot's build does not, and this keeps it so. */
function inlineScript(js: string): string {
  return js.replace(/<\/script/gi, '<\\/script');
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1180px; padding: 16px 24px; color: #222; }
h1 { font-size: 22px; margin: 8px 0; } h2 { font-size: 18px; border-bottom: 1px solid #ddd; padding-bottom: 4px; margin-top: 28px; }
h3 { font-size: 15px; margin: 0 0 4px; }
table.runs { border-collapse: collapse; font-size: 13px; } table.runs td, table.runs th { border: 1px solid #ddd; padding: 3px 8px; text-align: left; }
.warnings { background: #fff4e5; border: 1px solid #f0b060; padding: 8px 12px; margin: 12px 0; }
.warnings li, .notes li { margin: 2px 0; } .notes { color: #555; font-size: 13px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(540px, 1fr)); gap: 8px 20px; }
figure { margin: 12px 0; min-width: 0; } figcaption { color: #444; font-size: 13px; margin-top: 2px; } .note { color: #777; font-size: 12px; margin: 2px 0; }
td.worse { background: #fde0dc; font-weight: 600; } td.better { background: #e3f4e1; }
pre { background: #f6f6f6; padding: 8px; overflow: auto; max-height: 360px; font-size: 12px; }
`;

function runRow(r: RunHeader): string {
  const c = r.counts;
  const cells = [
    r.label,
    r.servebench_version ?? '—',
    r.model ?? '—',
    r.endpoint ?? '—',
    r.load,
    r.transport ?? '—',
    `${c.issued} issued: ${c.succeeded} ok, ${c.errored} errored, ${c.cancelled} cancelled`,
    r.duration_s === null ? '—' : `${r.duration_s.toFixed(2)} s`,
    r.started ?? '—',
  ];
  return `<tr>${cells.map((x) => `<td>${escapeHtml(x)}</td>`).join('')}</tr>`;
}

function figure(c: ChartSpec): string {
  return `<figure data-chart="${escapeHtml(c.id)}" data-series="${c.series.length}"><h3>${escapeHtml(c.title)}</h3><div class="chart"></div><figcaption>${escapeHtml(c.caption)}</figcaption>${c.note ? `<p class="note">${escapeHtml(c.note)}</p>` : ''}</figure>`;
}

function comparisonTable(c: NonNullable<ReportModel['comparison']>): string {
  const head = `<tr>${c.columns.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const rows = c.rows.map(
    (r) =>
      `<tr>${r.map((x) => `<td class="${x === 'worse' ? 'worse' : x === 'better' ? 'better' : ''}">${escapeHtml(x)}</td>`).join('')}</tr>`,
  );
  return `<section><h2>Comparison (first run = baseline)</h2><table class="runs compare">${head}${rows.join('')}</table>${list('notes', c.notes)}</section>`;
}

function list(cls: string, items: readonly string[]): string {
  return items.length === 0 ? '' : `<ul class="${cls}">${items.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>`;
}

export function renderPage(model: ReportModel): string {
  const { js, css } = uplotAssets();
  const heads = ['run', 'servebench', 'model', 'endpoint', 'load', 'transport', 'requests', 'duration', 'started (UTC)'];
  const warnings =
    model.warnings.length > 0
      ? `<div class="warnings"><strong>Warnings</strong>${list('', model.warnings)}</div>`
      : '<p>No warnings from the harness.</p>';
  const configs = model.runs
    .map(
      (r) =>
        `<details><summary>config of ${escapeHtml(r.label)} (secrets redacted)</summary><pre>${escapeHtml(JSON.stringify(r.config, null, 2))}</pre></details>`,
    )
    .join('');
  const sections = model.sections
    .map((s) => `<section><h2>${escapeHtml(s.title)}</h2><div class="grid">${s.charts.map(figure).join('')}</div></section>`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(model.title)}</title>
<style>${css}</style><style>${STYLE}</style>
</head><body>
<h1>${escapeHtml(model.title)}</h1>
<p>Written by ${escapeHtml(model.generated_by)} from the runs' exports.</p>
<table class="runs"><tr>${heads.map((h) => `<th>${h}</th>`).join('')}</tr>${model.runs.map(runRow).join('')}</table>
${warnings}
${configs}
${list('notes', model.notes)}
${model.comparison ? comparisonTable(model.comparison) : ''}
${sections}
<script type="application/json" id="report-data">${inlineJson(model)}</script>
<script>${inlineScript(js)}</script>
<script>${inlineScript(CLIENT_JS)}</script>
</body></html>
`;
}
