// CLI entry: wires yargs commands; holds no logic of its own.
import { describeSystemError, ServebenchError } from '../errors.js';
import { scrub } from '../secrets.js';
import { addCommands } from './commands.js';
import { checkBooleanValues, flagMessage } from './flags.js';
import { servebenchVersion } from '../version.js';

/** The part of yargs' internals main() reaches into (its type definitions leave them out). */
interface YargsInternals {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
}

/** Print one line for an error and pick its exit code; never a stack trace for expected errors. */
export function reportFatal(err: unknown): number {
  // Scrubbed: a message may quote a server's answer, and a server may echo the key (src/secrets.ts).
  if (err instanceof ServebenchError) {
    process.stderr.write(scrub(`servebench: ${err.message}\n`));
    return err.exitCode;
  }
  const msg = err instanceof Error ? err.message : String(err);
  process.stderr.write(scrub(`servebench: internal error: ${msg}\n`));
  if (process.env.SERVEBENCH_DEBUG && err instanceof Error && err.stack) process.stderr.write(scrub(err.stack + '\n'));
  return 1;
}

/**
 * stdout that cannot be written (redirected to a full disk or /dev/full, a pipe whose reader has
 * gone) costs the console output only: one line on stderr, and the exit code stays the run's. An
 * unwritable stderr (a closed terminal, after SIGHUP) is ignored: there is nowhere left to say it.
 */
export function guardStdio(out: NodeJS.WriteStream = process.stdout, err: NodeJS.WriteStream = process.stderr): void {
  let told = false;
  out.on('error', (e: NodeJS.ErrnoException) => {
    if (told) return;
    told = true;
    if (!err.destroyed)
      err.write(`servebench: cannot write to stdout: ${describeSystemError(e)} (the console output is lost; artifacts are not affected)\n`);
  });
  err.on('error', () => {});
}

export async function main(argv: string[]): Promise<void> {
  guardStdio();
  // The version alone needs no parser: answered before yargs is loaded.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${servebenchVersion()}\n`);
    return;
  }
  const { default: yargs } = await import('yargs');
  // yargs renders the whole help text before every command's handler runs (so a handler could print
  // it): for profile's hundreds of options, wrapping it took 0.3–0.6 s of each run's start. It is
  // wrapped only when help is what was asked for.
  const helpAsked = argv.some((a) => a === '--help' || a === '-h');
  let parser = yargs(argv)
    .scriptName('servebench')
    .usage('$0 <command> [options]')
    .strict()
    .demandCommand(1, 'a command is required (try: servebench profile)')
    .recommendCommands()
    .help()
    .version(servebenchVersion())
    .alias('version', 'V')
    .wrap(helpAsked ? Math.min(110, process.stdout.columns || 100) : null)
    .fail((msg, err) => {
      // yargs' own validation errors (YError) are bad input like the rest; anything else is ours.
      if (err && err.name !== 'YError') throw err;
      msg = msg ?? err?.message ?? '';
      // Bad flag or value: one line naming it, exit code 2.
      process.stderr.write(scrub(`servebench: ${flagMessage(msg)}\n`));
      process.exit(2);
    });
  // yargs also renders the command's whole help each time a command's handler starts (command.js calls
  // cacheHelpMessage, so that a handler could print it; none here does): for profile's hundreds of
  // options that blocked the run's first steps for 0.1–0.5 s. Only a help that was asked for is rendered.
  const usage = (parser as unknown as YargsInternals).getInternalMethods?.().getUsageInstance?.();
  if (!helpAsked && usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
  // Runs once the command's options are known (its builder has run), before its handler.
  // (getOptions: yargs' own option table, which its type definitions leave out.)
  const table = parser as unknown as { getOptions?: () => { boolean?: string[] } };
  parser = parser.middleware(() => checkBooleanValues(argv, table.getOptions?.().boolean ?? []), true);
  parser = await addCommands(parser, argv);
  try {
    await parser.parseAsync();
  } catch (err) {
    process.exitCode = reportFatal(err);
  }
}
