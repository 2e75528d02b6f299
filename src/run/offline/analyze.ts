// `analyze` wiring: records.jsonl → summary → the same reports a run writes, and the console.
import path from 'node:path';
import { writeSummaryArtifacts } from '../../export/artifacts.js';
import { renderConsole } from '../../export/console.js';
import { defaultRegistry } from '../../metrics/catalogue.js';
import { summarize } from '../../metrics/accumulate.js';
import { readRecordsFile } from '../../records/read.js';
import { buildBreakdown } from '../../export/breakdown.js';

/** Rebuilds the reports of `recordsFile` into `dir` (default: <records folder>/analyze). */
export async function analyzeRecords(recordsFile: string, dir: string | undefined, digits: number | undefined): Promise<void> {
  const registry = defaultRegistry();
  const records = await readRecordsFile(recordsFile, registry);
  const summary = summarize(records, digits === undefined ? {} : { significantDigits: digits });
  const color = process.stdout.isTTY === true;
  // Per URL and per model, from the url and model each line names (export/breakdown.ts).
  const breakdown = buildBreakdown(records, digits === undefined ? {} : { significantDigits: digits }, color);
  const profiling = records.filter((r) => r.raw.credit.phase === 'profiling');
  const outDir = dir ?? path.join(path.dirname(recordsFile), 'analyze');
  const minStart = profiling.reduce<bigint | null>(
    (m, r) => (m === null || r.raw.credit.credit_issued_ns < m ? r.raw.credit.credit_issued_ns : m),
    null,
  );
  const maxEnd = profiling.reduce<bigint | null>((m, r) => (m === null || r.raw.end_ns > m ? r.raw.end_ns : m), null);
  await writeSummaryArtifacts(outDir, summary, {
    config: { analyzed_records: path.resolve(recordsFile) },
    run: { start_ns: minStart, end_ns: maxEnd, wall_anchor: null },
    ...(breakdown ? { extra: { breakdown: breakdown.json } } : {}),
  });
  process.stdout.write(renderConsole(summary, { color, width: process.stdout.columns || undefined }) + '\n');
  if (breakdown) process.stdout.write('\n' + breakdown.console + '\n');
  process.stderr.write(`servebench: ${records.length} records read; reports written to ${outDir}\n`);
}
