// `servebench merge DIR… -o OUT` (issue 18): one artifact dir from the dirs of a sharded run's
// shards, as if one process had run the whole load.
// - Every shard's stamps are CLOCK_MONOTONIC ns of its own host; its wall anchor maps them onto the
//   first shard's timeline (mono → wall on the shard's clock → mono of the first shard), so the
//   merged records.jsonl reads as one run's, and the run-level windows and time-weighted metrics are
//   recomputed over all records on that one timeline.
// - Distributions come from the shards' histograms.json merged (HDR merge is exact: the same
//   buckets as recording every value in one histogram); exact moments from the records.
// - GPU telemetry and server-metrics lines are joined onto the same timeline.
import fs from 'node:fs';
import path from 'node:path';
import { makeArtifactDir, writeArtifact } from '../../export/artifact-file.js';
import { RECORDS_JSONL, writeSummaryArtifacts } from '../../export/artifacts.js';
import { renderConsole } from '../../export/console.js';
import { GPU_TELEMETRY_JSONL } from '../../export/read-run.js';
import { InvalidFileError } from '../../errors.js';
import { defaultRegistry } from '../../metrics/catalogue.js';
import { summarize } from '../../metrics/accumulate.js';
import { registryFor } from '../../metrics/conventions.js';
import { MetricHistogram } from '../../metrics/core/histogram.js';
import type { ConventionChoice } from '../../metrics/core/options.js';
import type { MetricsSummary } from '../../metrics/core/summary.js';
import { forEachRecordLine, parseRecordLine } from '../../records/read.js';
import type { ProcessedRecord } from '../../model/processed-record.js';
import { SERVER_METRICS_JSONL } from '../../server-metrics/export.js';
import { servebenchVersion } from '../../version.js';
import { readShards, type ShardInput, type ShardSet } from './merge-inputs.js';
import { mergeDistributions, mergeSection } from './merge-summary.js';
import { writeRunReport } from '../single/run-report.js';

export interface MergeRequest {
  dirs: string[];
  out: string;
  allowPartial: boolean;
  log: (msg: string) => void;
}

/** ns to add to a shard's stamps to put them on the first shard's monotonic timeline. */
export function timelineShift(shard: ShardInput, ref: ShardInput): bigint {
  return shard.anchor.unix_ns - shard.anchor.monotonic_ns - (ref.anchor.unix_ns - ref.anchor.monotonic_ns);
}

const RECORD_STAMPS = /"(credit_issued_ns|targeted_start_ns|start_ns|end_ns|last_content_ns)":(-?\d+)/g;

/** One records.jsonl line moved by `shift` ns, tagged with its shard. Integers stay exact (bigint). */
export function shiftRecordLine(line: string, shift: bigint, shard: number): string {
  const moved = line
    .replace(RECORD_STAMPS, (_m, k: string, v: string) => `"${k}":${BigInt(v) + shift}`)
    .replace(/"chunk_ns":\[([-\d,\s]*)\]/, (_m, list: string) => {
      const xs = list.split(',').filter((x) => x.trim() !== '');
      return `"chunk_ns":[${xs.map((x) => String(BigInt(x.trim()) + shift)).join(',')}]`;
    });
  return moved.replace(/}\s*$/, `,"shard":${shard}}`);
}

function shiftTimeLine(line: string, shift: bigint, shard: number): string {
  return line.replace(/"t_ns":(-?\d+)/, (_m, v: string) => `"t_ns":${BigInt(v) + shift}`).replace(/}\s*$/, `,"shard":${shard}}`);
}

function linesOf(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
}

/** Joins a per-shard JSONL (GPU telemetry, server metrics) onto one timeline, in time order; null when no shard has it. */
function joinTimeSeries(set: ShardSet, name: string): string | null {
  const ref = set.shards[0];
  const rows: { t: bigint; line: string }[] = [];
  let any = false;
  for (const s of set.shards) {
    const file = path.join(s.dir, name);
    if (!fs.existsSync(file)) continue;
    any = true;
    const shift = timelineShift(s, ref);
    for (const l of linesOf(file)) {
      const line = shiftTimeLine(l, shift, s.index);
      const t = /"t_ns":(-?\d+)/.exec(line);
      rows.push({ t: t ? BigInt(t[1]) : 0n, line });
    }
  }
  if (!any) return null;
  rows.sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : 0));
  return rows.map((r) => r.line).join('\n') + '\n';
}

function mergedRecords(set: ShardSet, convention: ConventionChoice | undefined): { lines: string[]; records: ProcessedRecord[] } {
  const registry = convention === undefined ? defaultRegistry() : registryFor(convention);
  const ref = set.shards[0];
  const lines: string[] = [];
  const records: ProcessedRecord[] = [];
  for (const s of set.shards) {
    const shift = timelineShift(s, ref);
    const file = path.join(s.dir, RECORDS_JSONL);
    forEachRecordLine(file, (l, n) => {
      const line = shiftRecordLine(l, shift, s.index);
      records.push(parseRecordLine(line, `${file}:${n}`, registry));
      lines.push(line);
    });
  }
  return { lines, records };
}

/** Each shard's counts add up, and its records.jsonl holds exactly its issued requests. */
function checkCounts(set: ShardSet, records: readonly ProcessedRecord[], lines: readonly string[]): void {
  const byShard = new Map<number, number>();
  lines.forEach((l, i) => {
    if (records[i].raw.credit.phase !== 'profiling') return;
    const shard = Number(/"shard":(\d+)}$/.exec(l)?.[1]);
    byShard.set(shard, (byShard.get(shard) ?? 0) + 1);
  });
  for (const s of set.shards) {
    const c = s.profile.counts;
    if (c.issued !== c.succeeded + c.errored + c.cancelled) {
      throw new InvalidFileError(`${s.dir}: counts do not add up (issued ${c.issued} ≠ ${c.succeeded} + ${c.errored} + ${c.cancelled})`);
    }
    const n = byShard.get(s.index) ?? 0;
    if (n !== c.issued)
      throw new InvalidFileError(`${s.dir}: ${RECORDS_JSONL} holds ${n} profiling records, its export ${c.issued} issued`);
  }
}

/** `{name: {window, shards}}`: the union of the shards' windows (common timeline) and each shard's section; {} when none has it. */
function joinedSection(set: ShardSet, name: 'gpu_telemetry' | 'server_metrics'): Record<string, unknown> {
  const ref = set.shards[0];
  const parts = set.shards.filter((s) => s.profile[name] !== undefined && s.profile[name] !== null);
  if (parts.length === 0) return {};
  let start: bigint | null = null;
  let end: bigint | null = null;
  for (const s of parts) {
    const w = (s.profile[name] as { window?: { start_ns?: unknown; end_ns?: unknown } }).window;
    if (w?.start_ns == null || w.end_ns == null) continue;
    const a = BigInt(String(w.start_ns)) + timelineShift(s, ref);
    const b = BigInt(String(w.end_ns)) + timelineShift(s, ref);
    if (start === null || a < start) start = a;
    if (end === null || b > end) end = b;
  }
  return {
    [name]: { window: { start_ns: start, end_ns: end }, shards: parts.map((s) => ({ index: s.index, ...(s.profile[name] as object) })) },
  };
}

export async function runMerge(req: MergeRequest): Promise<MetricsSummary> {
  const set = readShards(req.dirs, req.allowPartial);
  const ref = set.shards[0];
  const config = ref.profile.config as Record<string, unknown>;
  const convention = (config.statistics as { convention?: ConventionChoice } | undefined)?.convention;
  const digits = ref.histograms?.significant_digits ?? (config.histogram_significant_digits as number | undefined);
  const { lines, records } = mergedRecords(set, convention);
  checkCounts(set, records, lines);
  const summary = summarize(records, {
    ...(digits === undefined ? {} : { significantDigits: digits }),
    metricOptions: convention === undefined ? {} : { convention },
  });
  // Distributions from the shards' histograms, merged (exact), in place of those rebuilt from the lines.
  mergeDistributions(
    summary,
    set.shards.map((s) => s.histograms),
    (e) => MetricHistogram.fromExport(e),
  );
  const shifted = (s: ShardInput, v: unknown): bigint | null =>
    v === null || v === undefined ? null : BigInt(String(v)) + timelineShift(s, ref);
  const starts = set.shards.map((s) => shifted(s, s.profile.run.start_ns)).filter((v): v is bigint => v !== null);
  const ends = set.shards.map((s) => shifted(s, s.profile.run.end_ns)).filter((v): v is bigint => v !== null);
  await makeArtifactDir(req.out);
  await writeArtifact(path.join(req.out, RECORDS_JSONL), lines.join('\n') + '\n');
  for (const name of [GPU_TELEMETRY_JSONL, SERVER_METRICS_JSONL]) {
    const joined = joinTimeSeries(set, name);
    if (joined !== null) await writeArtifact(path.join(req.out, name), joined);
  }
  await writeSummaryArtifacts(req.out, summary, {
    config: { ...config, artifact_dir: req.out, shard: null },
    run: {
      start_ns: starts.length > 0 ? starts.reduce((a, b) => (b < a ? b : a)) : null,
      end_ns: ends.length > 0 ? ends.reduce((a, b) => (b > a ? b : a)) : null,
      wall_anchor: ref.anchor,
    },
    extra: {
      servebench_version: servebenchVersion(),
      shards_servebench_version: ref.profile.servebench_version,
      merge: mergeSection(set),
      // Each shard's GPU and server-metrics sections, their windows joined on the common timeline.
      ...joinedSection(set, 'gpu_telemetry'),
      ...joinedSection(set, 'server_metrics'),
      load_mode: ref.profile.load_mode,
      tokenizer: ref.profile.tokenizer,
      transport: ref.profile.transport,
    },
  });
  writeRunReport(req.out, req.log);
  process.stdout.write(renderConsole(summary, { color: process.stdout.isTTY === true, width: process.stdout.columns || undefined }) + '\n');
  const c = summary.counts;
  const partial = set.missing.length + set.failed.length > 0 ? ` (partial: ${set.shards.length} of ${set.count} shards)` : '';
  req.log(
    `merged ${set.shards.length} shards${partial}: ${c.issued} issued, ${c.succeeded} succeeded, ${c.errored} errored, ${c.cancelled} cancelled; exports written to ${req.out}`,
  );
  return summary;
}
