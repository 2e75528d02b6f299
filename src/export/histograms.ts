// histograms.json: the profiling phase's HDR histogram of every distribution metric, in
// HdrHistogram's standard compressed form, so that runs can be merged (decode, merge, re-read
// percentiles) by servebench or any HdrHistogram library. Values are in base units × scale.
import path from 'node:path';
import { writeArtifact } from './artifact-file.js';
import type { HistogramExport } from '../metrics/core/histogram.js';
import type { MetricsSummary } from '../metrics/core/summary.js';
import { scrub } from '../secrets.js';

export const HISTOGRAMS_JSON = 'histograms.json';

export interface HistogramsJson {
  significant_digits: number;
  /** tag → histogram; only metrics that had values. */
  metrics: Record<string, HistogramExport>;
}

/** The histograms.json document, or null for a summary without histograms (hand-built ones). */
export function buildHistogramsJson(summary: MetricsSummary): HistogramsJson | null {
  if (!summary.histograms || summary.histogram_significant_digits === undefined) return null;
  const metrics: Record<string, HistogramExport> = {};
  for (const [tag, h] of summary.histograms) if (h.count > 0) metrics[tag] = h.toExport();
  return { significant_digits: summary.histogram_significant_digits, metrics };
}

/** Writes histograms.json into `dir`; returns its path, or null when there is nothing to write. */
export async function writeHistogramsJson(dir: string, summary: MetricsSummary): Promise<string | null> {
  const doc = buildHistogramsJson(summary);
  if (!doc) return null;
  const file = path.join(dir, HISTOGRAMS_JSON);
  // Tags and encodings only, but every artifact goes through the scrubber (src/secrets.ts).
  await writeArtifact(file, JSON.stringify(doc, (_k, v: unknown) => (typeof v === 'string' ? scrub(v) : v), 2) + '\n');
  return file;
}
