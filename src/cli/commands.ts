// The list of CLI commands, in help order.
import type { CommandModule } from 'yargs';
import { analyzeCommand } from './analyze.js';
import { mockCommand } from './mock.js';
import { profileCommand } from './profile.js';
import { telemetryCommand } from './telemetry.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CommandModule<any, any>[] = [
  profileCommand as CommandModule<any, any>,
  analyzeCommand as CommandModule<any, any>,
  mockCommand,
  telemetryCommand,
];
