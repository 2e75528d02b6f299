// timeslices.json and timeslices.csv.
import path from 'node:path';
import { writeArtifact } from '../export/artifact-file.js';
import { stringifyWithBigInt } from '../export/format.js';
import { scrub } from '../secrets.js';
import { slicesCsv, type TimeSlice } from './slices.js';

export const TIMESLICES_JSON = 'timeslices.json';
export const TIMESLICES_CSV = 'timeslices.csv';

export async function writeTimeslices(dir: string, sliceDurationS: number, slices: readonly TimeSlice[]): Promise<void> {
  const doc = {
    slice_duration_s: sliceDurationS,
    assignment: 'a request belongs to the slice in which it ended; effective concurrency is time-weighted inside each slice',
    percentiles: 'from per-slice HDR histograms (ms)',
    slices,
  };
  await writeArtifact(path.join(dir, TIMESLICES_JSON), stringifyWithBigInt(doc, 2) + '\n');
  await writeArtifact(path.join(dir, TIMESLICES_CSV), scrub(slicesCsv(slices)));
}
