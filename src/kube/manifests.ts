// The Kubernetes objects of a sharded run, and their YAML for `kubectl apply -f -`:
// - an Indexed Job of N pods, each `servebench profile --shard-count N --start-at T` (its index is
//   the Job's JOB_COMPLETION_INDEX), writing to /results/<run>/shard-<i> on a shared volume;
// - a merge Job that waits until every shard folder holds its exit marker (or a deadline), then runs
//   `servebench merge` into /results/<run>/merged;
// - the PersistentVolumeClaim, when a size is given.
// The merge waits on files, not on the Job's status: it needs no API access (no ServiceAccount, no
// RBAC, no kubectl in the image), and a marker on the volume also says the shard's exports are there.
import { stringify } from 'yaml';
import type { KubeSpec } from './spec.js';

export const RESULTS_MOUNT = '/results';
/** Written by each shard's wrapper when servebench exits: its exit code. The merge waits for it. */
export const EXIT_MARKER = 'exit_code';

// Each script is a constant: the user's flags never enter a shell string, they reach servebench as
// "$@" from the container's args array. The shard wrapper forwards SIGTERM (a shell as PID 1 would
// otherwise ignore it, and servebench would lose its graceful stop) and writes the marker whatever
// the outcome, so a failed shard is noticed at once rather than at the deadline.
export const SHARD_SCRIPT = `"$@" &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null' TERM INT
wait "$pid"
rc=$?
while kill -0 "$pid" 2>/dev/null; do wait "$pid"; rc=$?; done
mkdir -p "$SHARD_DIR" && printf '%s\\n' "$rc" > "$SHARD_DIR/${EXIT_MARKER}"
exit "$rc"
`;

export const MERGE_SCRIPT = `i=0
while [ "$i" -lt "$SHARD_COUNT" ]; do
  if [ -e "$RESULTS_DIR/shard-$i/${EXIT_MARKER}" ]; then i=$((i + 1)); continue; fi
  if [ "$(date +%s)" -ge "$WAIT_UNTIL" ]; then echo "servebench kube: shard $i has not finished by the deadline; merging what is there" >&2; break; fi
  sleep 5
done
exec "$@"
`;

type Obj = Record<string, unknown>;

/**
 * The kubelet expands $(VAR) in a container's command, args and env values, and reads $$ as $: each
 * $ of a user's flag is doubled so the pod's servebench reads the flag as typed.
 */
export const literalArg = (s: string): string => s.replaceAll('$', '$$$$');

function labels(spec: KubeSpec, role: 'shard' | 'merge'): Record<string, string> {
  return { 'app.kubernetes.io/name': 'servebench', 'app.kubernetes.io/instance': spec.run, 'app.kubernetes.io/component': role };
}

function metadata(spec: KubeSpec, name: string, objLabels: Record<string, string>): Obj {
  return { name, ...(spec.namespace === null ? {} : { namespace: spec.namespace }), labels: objLabels };
}

// The image's user (node, uid 1000); fsGroup makes the volume writable by it where the volume type honours it.
const SECURITY = { runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000 };

function podSpec(spec: KubeSpec, container: Obj, extra: Obj = {}): Obj {
  return {
    restartPolicy: 'Never',
    securityContext: SECURITY,
    ...extra,
    containers: [
      {
        image: spec.image,
        ...container,
        resources: spec.resources,
        volumeMounts: [{ name: 'results', mountPath: RESULTS_MOUNT }],
      },
    ],
    volumes: [{ name: 'results', persistentVolumeClaim: { claimName: spec.pvc } }],
  };
}

export const runDir = (spec: KubeSpec): string => `${RESULTS_MOUNT}/${spec.run}`;

/** The Indexed Job: one pod per shard, all starting their profiling phase at spec.start_at. */
export function shardsJob(spec: KubeSpec, profileArgs: readonly string[]): Obj {
  const shardDir = `${runDir(spec)}/shard-$(JOB_COMPLETION_INDEX)`;
  const env: Obj[] = [
    // The Job controller sets it too; declared here so that $(JOB_COMPLETION_INDEX) below expands on every version.
    {
      name: 'JOB_COMPLETION_INDEX',
      valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } },
    },
    { name: 'SHARD_DIR', value: shardDir },
  ];
  if (spec.api_key_secret !== null)
    env.push({ name: 'OPENAI_API_KEY', valueFrom: { secretKeyRef: { name: spec.api_key_secret.name, key: spec.api_key_secret.key } } });
  const args = [
    'servebench',
    'profile',
    '--shard-count',
    String(spec.shards),
    '--start-at',
    spec.start_at,
    '--artifact-dir',
    shardDir,
    ...profileArgs.map(literalArg),
  ];
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(spec, `${spec.run}-shards`, labels(spec, 'shard')),
    spec: {
      completionMode: 'Indexed',
      completions: spec.shards,
      parallelism: spec.shards,
      // A shard retried after the common start would measure a different load: each index fails on
      // its own (the others run on), and the merge names it.
      backoffLimitPerIndex: 0,
      template: {
        metadata: { labels: labels(spec, 'shard') },
        spec: podSpec(
          spec,
          { name: 'shard', command: ['sh', '-c', SHARD_SCRIPT, 'servebench-shard'], args, env },
          {
            // One client host per shard where the cluster has the nodes: spreading is the point of sharding.
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'kubernetes.io/hostname',
                whenUnsatisfiable: 'ScheduleAnyway',
                labelSelector: { matchLabels: labels(spec, 'shard') },
              },
            ],
          },
        ),
      },
    },
  };
}

/** The merge Job: waits for every shard's marker (at most until spec.merge_wait_until_s), then merges. */
export function mergeJob(spec: KubeSpec): Obj {
  const dir = runDir(spec);
  const shardDirs = Array.from({ length: spec.shards }, (_, i) => `${dir}/shard-${i}`);
  const args = ['servebench', 'merge', ...shardDirs, '-o', `${dir}/merged`, ...(spec.allow_partial ? ['--allow-partial'] : [])];
  const env = [
    { name: 'RESULTS_DIR', value: dir },
    { name: 'SHARD_COUNT', value: String(spec.shards) },
    { name: 'WAIT_UNTIL', value: String(spec.merge_wait_until_s) },
  ];
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(spec, `${spec.run}-merge`, labels(spec, 'merge')),
    spec: {
      // A merge that failed fails the same way again; rerun it by hand (docs/sharding.md).
      backoffLimit: 0,
      template: {
        metadata: { labels: labels(spec, 'merge') },
        spec: podSpec(spec, { name: 'merge', command: ['sh', '-c', MERGE_SCRIPT, 'servebench-merge'], args, env }),
      },
    },
  };
}

/** The shared volume: ReadWriteMany, since the shards' pods (on several nodes) and the merge's mount it at once. */
export function resultsClaim(spec: KubeSpec): Obj | null {
  if (spec.pvc_size === null) return null;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    // It outlives the run (several runs can share it), so it carries no run's labels.
    metadata: metadata(spec, spec.pvc, { 'app.kubernetes.io/name': 'servebench' }),
    spec: {
      accessModes: ['ReadWriteMany'],
      resources: { requests: { storage: spec.pvc_size } },
      ...(spec.storage_class === null ? {} : { storageClassName: spec.storage_class }),
    },
  };
}

/** Every object of the run, in the order kubectl should create them. */
export function buildManifests(spec: KubeSpec, profileArgs: readonly string[]): Obj[] {
  const claim = resultsClaim(spec);
  return [...(claim === null ? [] : [claim]), shardsJob(spec, profileArgs), mergeJob(spec)];
}

/**
 * The objects as one multi-document YAML stream. Written for a YAML 1.1 reader, which is what
 * kubectl uses: a flag value such as `on`, `no` or `0777` comes out quoted, so it stays a string.
 */
export function manifestsYaml(spec: KubeSpec, objects: readonly Obj[]): string {
  const head = `# servebench kube: run ${spec.run}, ${spec.shards} shard(s) starting at ${spec.start_at}; results in ${spec.pvc}:${runDir(spec)}/merged\n`;
  return head + objects.map((o) => stringify(o, { version: '1.1', lineWidth: 0 })).join('---\n');
}
