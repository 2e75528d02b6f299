// Writes the summary artifacts (profile_export.json and .csv, and histograms.json) into the artifact dir,
// scrubbed of the process's secrets (src/secrets.ts; the JSON by stringifyWithBigInt).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { MetricsSummary } from '../metrics/core/summary.js';
import { renderCsv } from './csv.js';
import { stringifyWithBigInt } from './format.js';
import { writeHistogramsJson } from './histograms.js';
import { buildProfileExport, type ProfileExportMeta } from './json.js';
import { scrub } from '../secrets.js';

export const PROFILE_JSON = 'profile_export.json';
export const PROFILE_CSV = 'profile_export.csv';
export const RECORDS_JSONL = 'records.jsonl';

export async function writeSummaryArtifacts(dir: string, summary: MetricsSummary, meta: ProfileExportMeta): Promise<string[]> {
  await fs.mkdir(dir, { recursive: true });
  const json = path.join(dir, PROFILE_JSON);
  const csv = path.join(dir, PROFILE_CSV);
  await fs.writeFile(json, stringifyWithBigInt(buildProfileExport(summary, meta), 2) + '\n');
  await fs.writeFile(csv, scrub(renderCsv(summary)));
  const histograms = await writeHistogramsJson(dir, summary);
  return histograms ? [json, csv, histograms] : [json, csv];
}
