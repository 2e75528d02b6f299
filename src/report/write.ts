// Writes report.html from exports alone: a run folder, several run folders overlaid, a sweep
// folder (its points), or a folder of repeated runs (its run_<i> folders overlaid).
import fs from 'node:fs';
import path from 'node:path';
import { InvalidFileError } from '../errors.js';
import { PROFILE_JSON } from '../export/artifacts.js';
import { distinctLabels, readRunExports, readSweepSummary, type RunExports } from '../export/read-run.js';
import { defaultRegistry } from '../metrics/catalogue.js';
import { scrub } from '../secrets.js';
import { servebenchVersion } from '../version.js';
import { buildReport, type ReportInput } from './build.js';
import type { ReportModel } from './model.js';
import { renderPage } from './page.js';

export const REPORT_HTML = 'report.html';

function runDirsOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^run_\d+$/.test(e.name) && fs.existsSync(path.join(dir, e.name, PROFILE_JSON)))
    .map((e) => e.name)
    .sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)))
    .map((n) => path.join(dir, n));
}

function labelled(dirs: readonly string[], opts: { records?: boolean } = {}): RunExports[] {
  const labels = distinctLabels(dirs);
  return dirs.map((d, i) => ({ ...readRunExports(d, opts), label: labels[i] }));
}

/** What the given paths are, read. Throws InvalidFileError (exit 2) for anything else. */
export function reportInput(paths: readonly string[]): ReportInput {
  if (paths.length === 0) throw new InvalidFileError('report: expected at least one run folder');
  if (paths.length === 1) {
    const dir = paths[0];
    const st = fs.statSync(dir, { throwIfNoEntry: false });
    if (st?.isDirectory() && !fs.existsSync(path.join(dir, PROFILE_JSON))) {
      const summary = readSweepSummary(dir);
      if (summary) {
        const points = summary.points.map((p) => path.join(dir, p.dir)).filter((d) => fs.existsSync(path.join(d, PROFILE_JSON)));
        if (points.length === 0) throw new InvalidFileError(`${dir}: a sweep folder without any point's ${PROFILE_JSON}`);
        // Points are overlaid by their distributions; their per-request plots are in each point's own report.
        return { kind: 'sweep', label: path.basename(path.resolve(dir)), summary, runs: labelled(points, { records: false }) };
      }
      const runs = runDirsOf(dir);
      if (runs.length > 0) return { kind: 'overlay', runs: labelled(runs) };
    }
    return { kind: 'run', runs: [labelled([dir])[0]] };
  }
  return { kind: 'overlay', runs: labelled(paths) };
}

/** Builds and writes the page (with `compare`'s table, for compare --html); returns its size in bytes. */
export function writeReport(input: ReportInput, file: string, comparison?: ReportModel['comparison']): number {
  const model = buildReport(input, defaultRegistry(), servebenchVersion());
  if (comparison) model.comparison = comparison;
  // The exports it reads were scrubbed when written; the page is scrubbed again for secrets this process knows.
  const html = scrub(renderPage(model));
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, html);
  return Buffer.byteLength(html);
}

/** The report of a folder (a run, a sweep, repeated runs) into that folder; returns its path. */
export function writeFolderReport(dir: string): string {
  const file = path.join(dir, REPORT_HTML);
  writeReport(reportInput([dir]), file);
  return file;
}
