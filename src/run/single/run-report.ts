// The report.html every profile run writes of itself (a run, each sweep point and the sweep, each
// repeated run and their overlay, a merged run). A report that cannot be written never fails a run.
import fs from 'node:fs';
import path from 'node:path';
import { REPORT_HTML, writeFolderReport } from '../../report/write.js';

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
