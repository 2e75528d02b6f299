// The report.html every profile run writes of itself (a run, each sweep point and the sweep, each
// repeated run and their overlay, a merged run). A report that cannot be written never fails a run.
import { REPORT_HTML, writeFolderReport } from '../../report/write.js';

/** After a run's exports: its report.html, or a warning saying why there is none. */
export function writeRunReport(dir: string, log: (msg: string) => void): void {
  try {
    writeFolderReport(dir);
  } catch (err) {
    log(`warning: ${REPORT_HTML} not written in ${dir}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
