// `servebench analyze`: rebuild the reports from a records.jsonl.
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { InvalidArgumentError } from '../errors.js';
import { writeSummaryArtifacts } from '../export/artifacts.js';
import { renderConsole } from '../export/console.js';
import { defaultRegistry } from '../metrics/catalogue.js';
import { summarize } from '../metrics/compute.js';
import { readRecordsFile } from '../records/read.js';

interface AnalyzeFlags {
  records: string;
  'artifact-dir'?: string;
  'histogram-significant-digits'?: number;
}

export const analyzeCommand: CommandModule<object, AnalyzeFlags> = {
  command: 'analyze <records>',
  describe: 'recompute profile_export.json/.csv, histograms.json and the console tables from a records.jsonl',
  builder: (y) =>
    y
      .positional('records', { type: 'string', describe: 'a records.jsonl written by profile', demandOption: true })
      .options({
        'artifact-dir': { type: 'string', describe: 'where to write the reports (default: <records folder>/analyze)' },
        'histogram-significant-digits': { type: 'number', describe: 'HDR precision, 1-5 (default 3)' },
      }) as never,
  handler: async (argv) => {
    const digits = argv['histogram-significant-digits'];
    if (digits !== undefined && !(Number.isInteger(digits) && digits >= 1 && digits <= 5)) {
      throw new InvalidArgumentError(`--histogram-significant-digits: expected an integer from 1 to 5, got ${String(digits)}`);
    }
    const registry = defaultRegistry();
    const records = await readRecordsFile(argv.records, registry);
    const summary = summarize(records, digits === undefined ? {} : { significantDigits: digits });
    const profiling = records.filter((r) => r.raw.credit.phase === 'profiling');
    const dir = argv['artifact-dir'] ?? path.join(path.dirname(argv.records), 'analyze');
    const minStart = profiling.reduce<bigint | null>((m, r) => (m === null || r.raw.credit.credit_issued_ns < m ? r.raw.credit.credit_issued_ns : m), null);
    const maxEnd = profiling.reduce<bigint | null>((m, r) => (m === null || r.raw.end_ns > m ? r.raw.end_ns : m), null);
    await writeSummaryArtifacts(dir, summary, {
      config: { analyzed_records: path.resolve(argv.records) },
      run: { start_ns: minStart, end_ns: maxEnd, wall_anchor: null },
    });
    process.stdout.write(renderConsole(summary, { color: process.stdout.isTTY === true, width: process.stdout.columns || undefined }) + '\n');
    process.stderr.write(`servebench: ${records.length} records read; reports written to ${dir}\n`);
  },
};
