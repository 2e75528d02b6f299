// The report's header per run: what ran (config, secrets redacted), the counts, and the warnings
// the harness raised about itself, so a reader sees "the client was the bottleneck" before a plot.
import { isHarmlessHeader, REDACTED } from '../secrets.js';
import type { RunExports } from '../export/read-run.js';
import type { RunHeader } from './model.js';

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null;
}

/**
 * The config as the page shows it. The export is redacted when written; this redacts again (API
 * key, every header value not on the harmless list, credentials in URLs) so a hand-edited or older export leaks nothing.
 */
export function redactForPage(config: unknown): unknown {
  const c = obj(config);
  if (!c) return config;
  const out: Obj = { ...c };
  if (out.api_key !== null && out.api_key !== undefined) out.api_key = REDACTED;
  const headers = obj(out.headers);
  if (headers)
    out.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, isHarmlessHeader(k) || v === REDACTED ? v : REDACTED]));
  for (const k of ['url', 'resolved_url']) {
    if (typeof out[k] === 'string') out[k] = out[k].replace(/\/\/[^/@\s]*@/, `//${REDACTED}@`);
  }
  return out;
}

function loadOf(p: Obj, cfg: Obj | null): string {
  const mode = typeof p.load_mode === 'string' ? p.load_mode : 'run';
  const load = obj(cfg?.load);
  if (mode === 'rate' && load) return `rate ${String(load.request_rate)} req/s (${String(load.arrival_pattern)})`;
  if (mode === 'concurrency') return `concurrency ${String(cfg?.concurrency)}`;
  return mode;
}

function startedAt(run: RunExports): string | null {
  const r = run.profile.run;
  const a = r?.wall_anchor;
  if (!a || r.start_ns === null) return null;
  const unixMs = (Number(a.unix_ns) + (Number(r.start_ns) - Number(a.monotonic_ns))) / 1e6;
  return Number.isFinite(unixMs) ? new Date(unixMs).toISOString() : null;
}

export function runHeader(run: RunExports): RunHeader {
  const p = run.profile as unknown as Obj;
  const cfg = obj(run.profile.config);
  const r = run.profile.run;
  const duration = r && r.start_ns !== null && r.end_ns !== null ? (Number(r.end_ns) - Number(r.start_ns)) / 1e9 : null;
  return {
    label: run.label,
    servebench_version: typeof p.servebench_version === 'string' ? p.servebench_version : null,
    model: typeof cfg?.model === 'string' ? cfg.model : null,
    endpoint: typeof cfg?.endpoint === 'string' ? cfg.endpoint : null,
    load: loadOf(p, cfg),
    transport: typeof p.transport === 'string' ? p.transport : null,
    counts: run.profile.counts,
    duration_s: duration,
    started: startedAt(run),
    config: redactForPage(run.profile.config),
  };
}

/** The warnings to show first: the harness's own, telemetry's, an interrupted run, failed requests. */
export function runWarnings(run: RunExports, many: boolean): string[] {
  const p = run.profile as unknown as Obj;
  const tag = (w: string) => (many ? `${run.label}: ${w}` : w);
  const out: string[] = [];
  const harness = obj(p.harness);
  if (harness && Array.isArray(harness.warnings)) for (const w of harness.warnings) out.push(tag(String(w)));
  const gpu = obj(p.gpu_telemetry);
  if (gpu && Array.isArray(gpu.warnings)) for (const w of gpu.warnings) out.push(tag(`GPU telemetry: ${String(w)}`));
  if (p.interrupted === true) out.push(tag('the run was interrupted (Ctrl-C): the numbers cover part of it'));
  const c = run.profile.counts;
  if (c.errored > 0 || c.cancelled > 0) out.push(tag(`${c.errored} of ${c.issued} requests errored and ${c.cancelled} were cancelled`));
  return out;
}
