// `servebench report DIR [DIR…] [-o FILE]`: report.html rebuilt from exports alone; several run
// folders are overlaid; a sweep folder gives the sweep's report.
import type { CommandModule } from 'yargs';
import { COMMAND_HEADS } from './command-heads.js';

interface ReportFlags {
  dirs: string[];
  output?: string;
}

export const reportCommand: CommandModule<object, ReportFlags> = {
  ...COMMAND_HEADS.report,
  builder: (y) =>
    y
      .positional('dirs', {
        type: 'string',
        array: true,
        describe: 'run folders, a sweep folder, or a folder of repeated runs',
        demandOption: true,
      })
      .options({
        output: {
          alias: 'o',
          type: 'string',
          describe: 'where to write it (default: DIR/report.html for one folder, ./report.html for several)',
        },
      }),
  handler: async (argv) => {
    const { runReport } = await import('../run/offline/report.js');
    const { file, bytes } = runReport({ dirs: argv.dirs.map(String), out: argv.output });
    process.stderr.write(`servebench: report written to ${file} (${(bytes / 1024).toFixed(0)} KiB)\n`);
  },
};
