// `compare` wiring: each run's exports → the comparison → the chosen format on stdout; exit 3
// (RegressionError) when --fail-on-regression finds a regression, after the table is printed.
import { RegressionError } from '../../errors.js';
import { compareRuns } from '../../compare/compare.js';
import { comparisonCells, renderComparison, type CompareFormat } from '../../compare/render.js';
import { writeReport } from '../../report/write.js';
import { chooseMetrics } from '../../compare/select.js';
import { distinctLabels, readRunExports } from '../../export/read-run.js';
import { defaultRegistry } from '../../metrics/catalogue.js';

export interface CompareRequest {
  runs: string[];
  format: CompareFormat;
  metrics?: string;
  failOnRegressionPct: number | null;
  noiseFloorPct: number;
  /** --html FILE: the runs overlaid in one report, with the comparison table. */
  html?: string;
}

export async function runCompare(req: CompareRequest): Promise<void> {
  const choices = chooseMetrics(req.metrics, defaultRegistry());
  const labels = distinctLabels(req.runs);
  const runs = req.runs.map((p, i) => ({ ...readRunExports(p), label: labels[i] }));
  const c = compareRuns(runs, choices, { noiseFloorPct: req.noiseFloorPct, failOnRegressionPct: req.failOnRegressionPct });
  process.stdout.write(renderComparison(c, req.format, req.format === 'table' && process.stdout.isTTY === true) + '\n');
  if (req.html !== undefined) {
    const bytes = writeReport({ kind: 'overlay', runs }, req.html, comparisonCells(c));
    process.stderr.write(`servebench: overlay report written to ${req.html} (${(bytes / 1024).toFixed(0)} KiB)\n`);
  }
  if (c.regressions.length > 0) {
    const list = c.regressions.map((g) => `${g.metric} ${g.delta_pct >= 0 ? '+' : ''}${g.delta_pct.toFixed(1)} % in ${g.run}`).join(', ');
    throw new RegressionError(`regression beyond ${req.failOnRegressionPct} % and beyond noise: ${list}`);
  }
}
