// Reads a run's exports back (profile_export.json, histograms.json, records.jsonl,
// gpu_telemetry.jsonl; sweep_summary.json for a sweep folder): what `compare` and `report` work
// from. A missing or unreadable export is one InvalidFileError (exit 2) naming the file.
import fs from 'node:fs';
import path from 'node:path';
import { InvalidFileError } from '../errors.js';
import { PROFILE_EXPORT_SCHEMA_VERSION, type ProfileExport } from './json.js';
import { PROFILE_JSON, RECORDS_JSONL } from './artifacts.js';
import { HISTOGRAMS_JSON, type HistogramsJson } from './histograms.js';
import { GPU_TELEMETRY_JSONL } from '../telemetry/export.js';
import { readRecordColumns, type RecordColumns } from '../records/read.js';

export { readRecordColumns, type RecordColumns };

export const SWEEP_SUMMARY_JSON = 'sweep_summary.json';
export { GPU_TELEMETRY_JSONL };

export interface GpuSample {
  gpu: string;
  t_s: number;
  power_w: number | null;
  energy_j: number | null;
}

export interface RunExports {
  /** The run's folder. */
  dir: string;
  /** A short name: the folder's base name (its parent's too when that alone is ambiguous). */
  label: string;
  profile: ProfileExport;
  histograms: HistogramsJson | null;
  /** null when the run was exported at level summary (no records.jsonl). */
  records: RecordColumns | null;
  gpu: GpuSample[] | null;
  /** The profiling start in ns (the zero of the record times). */
  origin_ns: number;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new InvalidFileError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InvalidFileError(`${file}: not valid JSON (${(err as Error).message})`);
  }
}

/** Where a path's profile_export.json is: the file itself, or inside the folder. */
export function profileFileOf(p: string): string {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) throw new InvalidFileError(`${p}: no such file or folder`);
  if (st.isFile()) return p;
  const file = path.join(p, PROFILE_JSON);
  if (fs.existsSync(file)) return file;
  if (fs.existsSync(path.join(p, SWEEP_SUMMARY_JSON))) throw new InvalidFileError(`${p}: a sweep folder; give its point folders instead`);
  if (fs.existsSync(path.join(p, 'aggregate')))
    throw new InvalidFileError(`${p}: a folder of repeated runs; give its run_<i> folders instead`);
  throw new InvalidFileError(`${p}: no ${PROFILE_JSON} (not a servebench run folder)`);
}

function readProfile(file: string): ProfileExport {
  const j = readJson(file) as Partial<ProfileExport> | null;
  if (j === null || typeof j !== 'object' || typeof j.metrics !== 'object' || j.metrics === null || typeof j.counts !== 'object') {
    throw new InvalidFileError(`${file}: not a servebench profile export (no metrics or counts)`);
  }
  if (typeof j.schema_version !== 'number') throw new InvalidFileError(`${file}: no schema_version`);
  if (j.schema_version > PROFILE_EXPORT_SCHEMA_VERSION) {
    throw new InvalidFileError(
      `${file}: export schema ${j.schema_version} is newer than this servebench reads (${PROFILE_EXPORT_SCHEMA_VERSION}); use a newer servebench`,
    );
  }
  return j as ProfileExport;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function readGpu(file: string, origin_ns: number): GpuSample[] | null {
  if (!fs.existsSync(file)) return null;
  const out: GpuSample[] = [];
  let n = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    n++;
    if (line.trim() === '') continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch (err) {
      throw new InvalidFileError(`${file}:${n}: not valid JSON (${(err as Error).message})`);
    }
    const t = num(o.t_ns);
    if (t === null) continue;
    out.push({ gpu: String(o.gpu), t_s: (t - origin_ns) / 1e9, power_w: num(o.power_w), energy_j: num(o.energy_j) });
  }
  return out.length > 0 ? out : null;
}

/** Reads one run (a run folder, or a profile_export.json path). */
export function readRunExports(p: string, opts: { records?: boolean } = {}): RunExports {
  const file = profileFileOf(p);
  const dir = path.dirname(file);
  const profile = readProfile(file);
  const hFile = path.join(dir, HISTOGRAMS_JSON);
  let histograms: HistogramsJson | null = null;
  if (fs.existsSync(hFile)) {
    const h = readJson(hFile) as HistogramsJson | null;
    if (h === null || typeof h !== 'object' || typeof h.metrics !== 'object' || typeof h.significant_digits !== 'number') {
      throw new InvalidFileError(`${hFile}: not a servebench histograms export`);
    }
    histograms = h;
  }
  const start = Number(profile.run?.start_ns ?? NaN);
  const origin_ns = Number.isFinite(start) ? start : 0;
  const records = opts.records === false ? null : readRecordColumns(path.join(dir, RECORDS_JSONL), origin_ns);
  const gpu = readGpu(path.join(dir, GPU_TELEMETRY_JSONL), origin_ns);
  return { dir, label: path.basename(dir), profile, histograms, records, gpu, origin_ns };
}

/** Labels that tell the runs apart: base names, with the parent's added where base names repeat. */
export function distinctLabels(paths: readonly string[]): string[] {
  // A profile_export.json path is labelled by its folder.
  const dirs = paths.map((p) => (fs.statSync(p, { throwIfNoEntry: false })?.isFile() ? path.dirname(p) : p));
  const base = dirs.map((d) => path.basename(path.resolve(d)));
  return base.map((b, i) => (base.filter((x) => x === b).length > 1 ? `${path.basename(path.dirname(path.resolve(dirs[i])))}/${b}` : b));
}

export interface SweepSummaryJson {
  schema_version: number;
  stopped: string | null;
  points: Array<Record<string, unknown> & { point: number; dir: string }>;
}

/** sweep_summary.json of a sweep folder, or null when `dir` is not one. */
export function readSweepSummary(dir: string): SweepSummaryJson | null {
  const file = path.join(dir, SWEEP_SUMMARY_JSON);
  if (!fs.existsSync(file)) return null;
  const j = readJson(file) as SweepSummaryJson | null;
  if (j === null || typeof j !== 'object' || !Array.isArray(j.points))
    throw new InvalidFileError(`${file}: not a servebench sweep summary`);
  return j;
}
