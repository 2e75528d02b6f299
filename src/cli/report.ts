// `servebench report DIR [DIR…] [-o FILE]`: report.html rebuilt from exports alone; several run
// folders are overlaid; a sweep folder gives the sweep's report.
import type { CommandModule } from 'yargs';
import { runReport } from '../run/offline/report.js';

interface ReportFlags {
  dirs: string[];
  output?: string;
}

export const reportCommand: CommandModule<object, ReportFlags> = {
  command: 'report <dirs..>',
  describe: 'write report.html (plots, offline, self-contained) from run folders; several are overlaid',
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
  handler: (argv) => {
    const { file, bytes } = runReport({ dirs: argv.dirs.map(String), out: argv.output });
    process.stderr.write(`servebench: report written to ${file} (${(bytes / 1024).toFixed(0)} KiB)\n`);
  },
};
