// The list of CLI commands, in help order.
import type { Argv } from 'yargs';
import { analyzeCommand } from './analyze.js';
import { compareCommand } from './compare.js';
import { datasetsCommand } from './datasets.js';
import { kubeCommand } from './kube.js';
import { mergeCommand } from './merge.js';
import { mockCommand } from './mock.js';
import { profileCommand } from './profile.js';
import { reportCommand } from './report.js';
import { telemetryCommand } from './telemetry.js';

/**
 * Registers every command on `parser`. One call each, so each command's flags type is checked against its handler.
 * `argv`: the raw command line (kube hands its profile flags to the pods verbatim).
 */
export function addCommands(parser: Argv, argv: readonly string[]): Argv {
  return parser
    .command(profileCommand)
    .command(analyzeCommand)
    .command(compareCommand)
    .command(reportCommand)
    .command(mergeCommand)
    .command(mockCommand)
    .command(telemetryCommand)
    .command(datasetsCommand)
    .command(kubeCommand(argv));
}
