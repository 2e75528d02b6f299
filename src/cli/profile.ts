// `servebench profile`: benchmark a server (or the built-in mock).
import type { CommandModule, Options } from 'yargs';
import { buildRunConfig, type ProfileFlags } from '../config/validate.js';
import type { RunConfig } from '../config/types.js';
import { secretsOf } from '../config/redact.js';
import { addSecrets, scrub } from '../secrets.js';
import { profileOptions } from './profile-options.js';
import { valueFlags } from './flags.js';
import { locateFlagError, mergeFlags, readConfigFile } from './config-file.js';
import { renderEffectiveConfig } from './print-config.js';
import { COMMAND_HEADS } from './command-heads.js';

/** Flags about the flags: not keys of a config file. */
const configOptions: Record<string, Options> = {
  config: {
    type: 'string',
    group: 'Config file:',
    describe: 'YAML file of profile flags (long names as keys); flags given here override it',
  },
  'print-config': {
    type: 'boolean',
    group: 'Config file:',
    describe: 'print the effective config (file + flags) as YAML, secrets redacted, and exit without running',
  },
};

type ProfileArgs = ProfileFlags & { config?: string; 'print-config'?: boolean };

/** The run config of a command line, a --config file merged under it; flag errors from the file name its file:line. */
export function resolveProfileFlags(argv: Record<string, unknown>): {
  flags: Record<string, unknown>;
  cfg: RunConfig;
  file: string | null;
} {
  const file = typeof argv.config === 'string' ? readConfigFile(argv.config, profileOptions) : null;
  const flags = mergeFlags(argv, profileOptions, file);
  try {
    return { flags, cfg: buildRunConfig({ ...flags, config: file?.file }), file: file?.file ?? null };
  } catch (err) {
    throw locateFlagError(err, argv, file);
  }
}

export const profileCommand: CommandModule<object, ProfileArgs> = {
  ...COMMAND_HEADS.profile,
  builder: (y) => y.options(valueFlags({ ...profileOptions, ...configOptions })),
  handler: async (argv) => {
    const { flags, cfg, file } = resolveProfileFlags(argv);
    if (argv['print-config']) {
      addSecrets(secretsOf(cfg));
      process.stdout.write(scrub(renderEffectiveConfig(flags, profileOptions, file)));
      return;
    }
    // The run's modules load only when a run is asked for (not for --help or --print-config).
    const { runProfile } = await import('../run/profile/profile.js');
    await runProfile(cfg);
  },
};
