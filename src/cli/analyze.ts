// `servebench analyze`: rebuild the reports from a records.jsonl.
import type { CommandModule } from 'yargs';
import { InvalidArgumentError } from '../errors.js';
import { COMMAND_HEADS } from './command-heads.js';

interface AnalyzeFlags {
  records: string;
  'artifact-dir'?: string;
  'histogram-significant-digits'?: number;
}

export const analyzeCommand: CommandModule<object, AnalyzeFlags> = {
  ...COMMAND_HEADS.analyze,
  builder: (y) =>
    y.positional('records', { type: 'string', describe: 'a records.jsonl written by profile', demandOption: true }).options({
      'artifact-dir': { type: 'string', describe: 'where to write the reports (default: <records folder>/analyze)' },
      'histogram-significant-digits': { type: 'number', describe: 'HDR precision, 1-5 (default 3)' },
    }),
  handler: async (argv) => {
    const digits = argv['histogram-significant-digits'];
    if (digits !== undefined && !(Number.isInteger(digits) && digits >= 1 && digits <= 5)) {
      throw new InvalidArgumentError(`--histogram-significant-digits: expected an integer from 1 to 5, got ${String(digits)}`);
    }
    const { analyzeRecords } = await import('../run/offline/analyze.js');
    await analyzeRecords(argv.records, argv['artifact-dir'], digits);
  },
};
