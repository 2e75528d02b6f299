// `servebench profile`: benchmark a server (or the built-in mock).
import type { CommandModule } from 'yargs';
import { buildRunConfig, type ProfileFlags } from '../config/validate.js';
import { profileOptions } from './profile-options.js';
import { valueFlags } from './flags.js';
import { runProfile } from '../run/profile.js';

export const profileCommand: CommandModule<object, ProfileFlags> = {
  command: 'profile',
  describe: 'benchmark an OpenAI-compatible server (default: the built-in mock)',
  builder: (y) => y.options(valueFlags(profileOptions)),
  handler: async (argv) => {
    await runProfile(buildRunConfig(argv));
  },
};
