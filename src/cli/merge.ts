// `servebench merge DIR… -o OUT`: one artifact dir from a sharded run's shard dirs (run/merge/merge.ts).
import type { CommandModule } from 'yargs';
import { InvalidArgumentError } from '../errors.js';
import { scrub } from '../secrets.js';
import { COMMAND_HEADS } from './command-heads.js';

interface MergeFlags {
  dirs: string[];
  out?: string;
  'allow-partial'?: boolean;
}

export const mergeCommand: CommandModule<object, MergeFlags> = {
  ...COMMAND_HEADS.merge,
  builder: (y) =>
    y.positional('dirs', { type: 'string', array: true, describe: 'one artifact dir per shard', demandOption: true }).options({
      out: { type: 'string', alias: 'o', describe: 'the merged artifact dir (required)' },
      'allow-partial': { type: 'boolean', describe: 'merge the shards that are there when some are missing or failed' },
    }),
  handler: async (argv) => {
    if (typeof argv.out !== 'string' || argv.out === '')
      throw new InvalidArgumentError('--out: required: the merged artifact dir (-o OUT)');
    const { runMerge } = await import('../run/merge/merge.js');
    await runMerge({
      dirs: argv.dirs.map(String),
      out: argv.out,
      allowPartial: argv['allow-partial'] === true,
      log: (m) => process.stderr.write(scrub(`servebench: ${m}\n`)),
    });
  },
};
