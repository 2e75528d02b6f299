// `servebench kube --shards N --image IMG [profile flags…]`: prints the Kubernetes manifests of a
// sharded run (src/kube/) for `kubectl apply -f -`. The profile flags are checked here as `profile`
// would check them, then handed to every pod verbatim.
import type { CommandModule, Options } from 'yargs';
import { buildRunConfig, type ProfileFlags } from '../config/validate.js';
import { InvalidArgumentError } from '../errors.js';
import { profileArgs } from '../kube/args.js';
import { buildManifests, manifestsYaml } from '../kube/manifests.js';
import { KUBE_DEFAULTS, MAX_SHARDS, resolveKubeSpec, type KubeFlags } from '../kube/spec.js';
import { valueFlags } from './flags.js';
import { profileOptions } from './profile-options.js';
import { COMMAND_HEADS } from './command-heads.js';

const G = 'Kubernetes:';
const str = (describe: string): Options => ({ type: 'string', group: G, describe });

export const kubeOptions: Record<string, Options> = {
  shards: str(`pods sharing the load, each one shard of it (required; 1-${MAX_SHARDS})`),
  image: str('the servebench image every pod runs (required; build it from the Dockerfile)'),
  pvc: str(`PersistentVolumeClaim (ReadWriteMany) the results go to, one folder per shard (default ${KUBE_DEFAULTS.pvc})`),
  'pvc-size': str('also create the claim, of this size (e.g. 20Gi)'),
  'storage-class': str('storage class of the claim --pvc-size creates (default: the cluster default)'),
  'run-name': str("the run's name: Jobs <name>-shards and <name>-merge, results in /results/<name> (default servebench-<start epoch s>)"),
  namespace: str("namespace of the Jobs (default: kubectl's current)"),
  'start-at': str('the instant every shard starts profiling: ISO 8601 with a zone or epoch seconds (default: now + --lead-time)'),
  'lead-time': str(`seconds from now to the common start: time to schedule pods and pull the image (default ${KUBE_DEFAULTS.lead_time_s})`),
  cpu: str(`CPU request of each pod (default ${KUBE_DEFAULTS.cpu})`),
  memory: str(`memory request of each pod (default ${KUBE_DEFAULTS.memory})`),
  'cpu-limit': str('CPU limit of each pod (default: --cpu, so whole CPUs are not throttled)'),
  'memory-limit': str('memory limit of each pod (default: --memory)'),
  'merge-timeout': str(
    `seconds after the start the merge waits for shards before merging what is there (default ${KUBE_DEFAULTS.merge_timeout_s})`,
  ),
  'allow-partial': { type: 'boolean', group: G, describe: 'merge with --allow-partial: a missing or failed shard is left out and named' },
  'api-key-secret': str('Secret NAME[:KEY] (key default api-key) holding the API key, given to each pod as $OPENAI_API_KEY'),
};

// Set by kube for every pod (or a secret that would be written into the manifest in clear).
const RESERVED: Record<string, string> = {
  'shard-index': 'is set by the Indexed Job (JOB_COMPLETION_INDEX) for each pod',
  'shard-count': 'is set by kube from --shards',
  'artifact-dir': 'is set by kube: /results/<run-name>/shard-<i> on the claim',
  'api-key': 'would be written into the manifest in clear; put it in a Secret and pass --api-key-secret NAME[:KEY]',
};

type KubeArgv = KubeFlags & ProfileFlags & Record<string, unknown>;

/** Checks the profile flags as `servebench profile` would, minus what only a pod can know (its environment). */
export function checkProfileFlags(argv: KubeArgv): void {
  for (const [flag, why] of Object.entries(RESERVED)) if (argv[flag] !== undefined) throw new InvalidArgumentError(`--${flag}: ${why}`);
  const cfg = buildRunConfig(argv, {});
  if (cfg.url_credentials !== null)
    throw new InvalidArgumentError('--url: credentials in the URL would be written into the manifest in clear; use --api-key-secret');
  if (cfg.load.sweep !== null || cfg.statistics.num_profile_runs > 1)
    throw new InvalidArgumentError('--shards: a sharded run is one profiling run: a sweep or repeated runs need one kube run each');
}

export function kubeCommand(rawArgv: readonly string[]): CommandModule<object, KubeArgv> {
  const own = new Map(Object.entries(kubeOptions).map(([name, o]) => [name, o.type === 'boolean']));
  return {
    ...COMMAND_HEADS.kube,
    builder: (y) => y.options(valueFlags({ ...profileOptions, ...kubeOptions })),
    handler: (argv) => {
      for (const [flag, o] of Object.entries(kubeOptions))
        if (o.type !== 'boolean' && Array.isArray(argv[flag])) throw new InvalidArgumentError(`--${flag}: given more than once`);
      const spec = resolveKubeSpec(argv, Date.now());
      checkProfileFlags(argv);
      if (argv.url === undefined) process.stderr.write('servebench: no --url: each shard would benchmark its own built-in mock\n');
      process.stdout.write(manifestsYaml(spec, buildManifests(spec, profileArgs(rawArgv, 'kube', own))));
    },
  };
}
