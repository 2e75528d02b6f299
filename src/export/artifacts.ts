// Writes the summary artifacts (profile_export.json and .csv, and histograms.json) into the artifact dir,
// scrubbed of the process's secrets (src/secrets.ts; the JSON by stringifyWithBigInt).
import path from 'node:path';
import type { MetricsSummary } from '../metrics/core/summary.js';
import { makeArtifactDir, writeArtifact } from './artifact-file.js';
import { renderCsv } from './csv.js';
import { stringifyWithBigInt } from './format.js';
import { writeHistogramsJson } from './histograms.js';
import { buildProfileExport, type ProfileExportMeta } from './json.js';
import { scrub } from '../secrets.js';

export const PROFILE_JSON = 'profile_export.json';
export const PROFILE_CSV = 'profile_export.csv';
export const RECORDS_JSONL = 'records.jsonl';

/** Throws ArtifactWriteError (the path and the error) when a file cannot be written. */
export async function writeSummaryArtifacts(dir: string, summary: MetricsSummary, meta: ProfileExportMeta): Promise<string[]> {
  await makeArtifactDir(dir);
  const json = path.join(dir, PROFILE_JSON);
  const csv = path.join(dir, PROFILE_CSV);
  await writeArtifact(json, stringifyWithBigInt(buildProfileExport(summary, meta), 2) + '\n');
  await writeArtifact(csv, scrub(renderCsv(summary)));
  const histograms = await writeHistogramsJson(dir, summary);
  return histograms ? [json, csv, histograms] : [json, csv];
}
