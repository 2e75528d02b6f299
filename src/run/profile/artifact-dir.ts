// Reusing an artifact dir: the files a previous run wrote there are removed before the new run, so
// no stale records.jsonl sits beside a new summary. Only servebench's own file names are touched
// (in the dir, and in the run_<i>/, point-*/ and aggregate/ folders of repeated runs and sweeps);
// anything else is kept. Peers (AIPerf, GuideLLM) overwrite their outputs in place; this does the
// same without leaving a file of the older run behind.
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AGGREGATE_DIR, AGGREGATE_JSON } from '../../export/aggregate.js';
import { PROFILE_CSV, PROFILE_JSON, RECORDS_JSONL } from '../../export/artifacts.js';
import { HISTOGRAMS_JSON } from '../../export/histograms.js';
import { REPORT_HTML } from '../../report/write.js';
import { SERVER_METRICS_JSONL } from '../../server-metrics/export.js';
import { GPU_TELEMETRY_JSONL } from '../../telemetry/export.js';
import { TIMESLICES_CSV, TIMESLICES_JSON } from '../../timeslices/export.js';
import { NETWORK_LATENCY_JSONL } from '../../transport/network-calibration.js';
import { SWEEP_CSV, SWEEP_JSON } from '../series/sweep-summary.js';
import { SEARCH_CSV, SEARCH_JSON } from '../series/search-summary.js';

const OWNED_FILES = new Set([
  PROFILE_JSON,
  PROFILE_CSV,
  RECORDS_JSONL,
  HISTOGRAMS_JSON,
  GPU_TELEMETRY_JSONL,
  NETWORK_LATENCY_JSONL,
  SWEEP_JSON,
  SWEEP_CSV,
  SEARCH_JSON,
  SEARCH_CSV,
  AGGREGATE_JSON,
  REPORT_HTML,
  SERVER_METRICS_JSONL,
  TIMESLICES_JSON,
  TIMESLICES_CSV,
]);
/** The folders of repeated runs (multi-run.ts), sweep points (sweep.ts) and the aggregate. */
const OWNED_DIR = new RegExp(`^(run_\\d+|point-\\d+-[A-Za-z0-9.-]+|${AGGREGATE_DIR})$`);

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Removes the exports of a previous run from `dir`; returns what was removed, relative to `dir`. */
export async function clearPreviousRun(dir: string, rel = ''): Promise<string[]> {
  const removed: string[] = [];
  for (const e of await entries(path.join(dir, rel))) {
    const name = path.join(rel, e.name);
    if (e.isFile() && OWNED_FILES.has(e.name)) {
      await fs.rm(path.join(dir, name));
      removed.push(name);
    } else if (e.isDirectory() && rel === '' && OWNED_DIR.test(e.name)) {
      const inner = await clearPreviousRun(dir, name);
      removed.push(...inner);
      // An emptied folder goes too; one holding files of the user's stays.
      if ((await entries(path.join(dir, name))).length === 0) await fs.rmdir(path.join(dir, name));
    }
  }
  return removed;
}
