// The list of CLI commands, in help order. Only the command being run is imported: the others are
// registered by name and description alone (command-heads.ts), which is all `--help` and yargs'
// "did you mean" need. Importing every command's module cost most of a second of each start.
import type { Argv, CommandModule } from 'yargs';
import { COMMAND_HEADS, type CommandName } from './command-heads.js';

// Dynamic imports on purpose (see above). Each returns the full CommandModule.
const LOADERS: Record<CommandName, (argv: readonly string[]) => Promise<CommandModule<object, never>>> = {
  profile: async () => (await import('./profile.js')).profileCommand as CommandModule<object, never>,
  analyze: async () => (await import('./analyze.js')).analyzeCommand as CommandModule<object, never>,
  compare: async () => (await import('./compare.js')).compareCommand as CommandModule<object, never>,
  report: async () => (await import('./report.js')).reportCommand as CommandModule<object, never>,
  merge: async () => (await import('./merge.js')).mergeCommand as CommandModule<object, never>,
  mock: async () => (await import('./mock.js')).mockCommand as CommandModule<object, never>,
  telemetry: async () => (await import('./telemetry.js')).telemetryCommand as CommandModule<object, never>,
  datasets: async () => (await import('./datasets.js')).datasetsCommand as CommandModule<object, never>,
  // kube hands its profile flags to the pods verbatim: it is given the raw command line.
  kube: async (argv) => (await import('./kube.js')).kubeCommand(argv) as CommandModule<object, never>,
};

/** The command a command line names: its first word that is not a flag, when that is a command. */
export function commandOf(argv: readonly string[]): CommandName | null {
  const first = argv.find((a) => !a.startsWith('-'));
  return first !== undefined && Object.hasOwn(COMMAND_HEADS, first) ? (first as CommandName) : null;
}

/**
 * Registers every command on `parser`: the one `argv` names with its module, the others by head only.
 * `argv`: the raw command line.
 */
export async function addCommands(parser: Argv, argv: readonly string[]): Promise<Argv> {
  const chosen = commandOf(argv);
  const full = chosen === null ? null : await LOADERS[chosen](argv);
  for (const name of Object.keys(COMMAND_HEADS) as CommandName[]) {
    // A head alone never runs: yargs runs only the command argv names, which is loaded.
    parser = parser.command(name === chosen ? full! : { ...COMMAND_HEADS[name], handler: () => {} });
  }
  return parser;
}

/** Every command's full module (for what documents the flags); `argv` as for kube. */
export async function loadAllCommands(argv: readonly string[] = []): Promise<CommandModule<object, never>[]> {
  return Promise.all((Object.keys(COMMAND_HEADS) as CommandName[]).map((n) => LOADERS[n](argv)));
}
