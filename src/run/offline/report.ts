// `report` wiring: report.html of one or more finished runs' folders (the report a run writes of
// itself is ../single/run-report.ts).
import fs from 'node:fs';
import path from 'node:path';
import { reportInput, REPORT_HTML, writeReport } from '../../report/write.js';

export interface ReportRequest {
  dirs: string[];
  out?: string;
}

/** Writes the report of `dirs`; returns its path and size. Bad input throws InvalidFileError (exit 2). */
export function runReport(req: ReportRequest): { file: string; bytes: number } {
  const only = req.dirs.length === 1 ? req.dirs[0] : null;
  // One folder (or one profile_export.json): the report goes beside its exports.
  const home = only === null ? null : fs.statSync(only, { throwIfNoEntry: false })?.isFile() ? path.dirname(only) : only;
  const file = req.out ?? (home === null ? REPORT_HTML : path.join(home, REPORT_HTML));
  const bytes = writeReport(reportInput(req.dirs), file);
  return { file, bytes };
}
