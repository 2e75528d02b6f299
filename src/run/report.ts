// `report` wiring, and the report.html every profile run writes (a run, each sweep point and the
// sweep, each repeated run and their overlay). A report that cannot be written never fails a run.
import fs from 'node:fs';
import path from 'node:path';
import { reportInput, REPORT_HTML, writeFolderReport, writeReport } from '../report/write.js';

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

/** The run's closing line naming its report.html, or null when none was written (the warning said why). */
export function reportLine(dir: string): string | null {
  const file = path.join(dir, REPORT_HTML);
  return fs.existsSync(file) ? `report: ${file}` : null;
}

/** After a run's exports: its report.html, or a warning saying why there is none. */
export function writeRunReport(dir: string, log: (msg: string) => void): void {
  try {
    writeFolderReport(dir);
  } catch (err) {
    log(`warning: ${REPORT_HTML} not written in ${dir}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
