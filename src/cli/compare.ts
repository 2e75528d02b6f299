// `servebench compare A B [C…]`: run folders (or profile_export.json files), the first the baseline.
import type { CommandModule } from 'yargs';
import { InvalidArgumentError } from '../errors.js';
import { COMMAND_HEADS } from './command-heads.js';

interface CompareFlags {
  runs: string[];
  format: string;
  metrics?: string;
  'fail-on-regression'?: number;
  'noise-floor': number;
  html?: string;
}

const FORMATS = ['table', 'markdown', 'json'] as const;

function percent(flag: string, v: number | undefined): number | undefined {
  if (v !== undefined && !(Number.isFinite(v) && v >= 0))
    throw new InvalidArgumentError(`--${flag}: expected a percentage ≥ 0, got ${String(v)}`);
  return v;
}

export const compareCommand: CommandModule<object, CompareFlags> = {
  ...COMMAND_HEADS.compare,
  builder: (y) =>
    y
      .positional('runs', {
        type: 'string',
        array: true,
        describe: 'run folders or profile_export.json files, at least two',
        demandOption: true,
      })
      .options({
        format: { type: 'string', default: 'table', describe: 'table | markdown (for pull-request comments) | json' },
        metrics: {
          type: 'string',
          describe: 'comma-separated, e.g. ttft_p99,itl_avg,output_token_throughput (default: the main latencies and throughputs)',
        },
        'fail-on-regression': { type: 'number', describe: 'exit 3 when a metric gets worse by more than PCT % and beyond noise' },
        html: { type: 'string', describe: 'also write the runs overlaid in one report.html, with this table, to FILE' },
        'noise-floor': { type: 'number', default: 2, describe: 'changes under PCT % are within noise (0: the tests alone decide)' },
      }),
  handler: async (argv) => {
    const runs = argv.runs.map(String);
    if (runs.length < 2) throw new InvalidArgumentError(`compare: expected at least two runs, got ${runs.length}`);
    if (!(FORMATS as readonly string[]).includes(argv.format)) {
      throw new InvalidArgumentError(`--format: expected one of ${FORMATS.join(', ')}, got ${JSON.stringify(argv.format)}`);
    }
    const { runCompare } = await import('../run/offline/compare.js');
    await runCompare({
      runs,
      format: argv.format as (typeof FORMATS)[number],
      metrics: argv.metrics,
      failOnRegressionPct: percent('fail-on-regression', argv['fail-on-regression']) ?? null,
      noiseFloorPct: percent('noise-floor', argv['noise-floor'])!,
      html: argv.html,
    });
  },
};
