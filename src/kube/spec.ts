// `servebench kube`'s own flags, checked and resolved into the one description the manifests are
// built from (manifests.ts). Pure: the clock is a parameter, so a given --start-at gives the same
// output every time.
import { badFlag as bad } from '../errors.js';

/** The flags of `servebench kube` that are its own (the profile flags pass through, see args.ts). */
export interface KubeFlags {
  shards?: string;
  image?: string;
  pvc?: string;
  'pvc-size'?: string;
  'storage-class'?: string;
  'run-name'?: string;
  namespace?: string;
  'start-at'?: string;
  'lead-time'?: string;
  cpu?: string;
  memory?: string;
  'cpu-limit'?: string;
  'memory-limit'?: string;
  'merge-timeout'?: string;
  'allow-partial'?: boolean;
  'api-key-secret'?: string;
}

export const KUBE_DEFAULTS = {
  pvc: 'servebench-results',
  lead_time_s: 120,
  cpu: '2',
  memory: '4Gi',
  merge_timeout_s: 86_400,
  api_key_secret_key: 'api-key',
} as const;

/** Kubernetes caps an Indexed Job's completions at 10^5. */
export const MAX_SHARDS = 100_000;

export interface Resources {
  requests: { cpu: string; memory: string };
  limits: { cpu: string; memory: string };
}

export interface KubeSpec {
  shards: number;
  image: string;
  /** The run's name: the Jobs' prefix and its folder on the volume (/results/<run>). */
  run: string;
  namespace: string | null;
  pvc: string;
  /** Set: the output also creates the claim (ReadWriteMany, this size). */
  pvc_size: string | null;
  storage_class: string | null;
  /** The --start-at every shard gets, as given (or now + lead time, ISO 8601 to the second). */
  start_at: string;
  start_epoch_s: number;
  resources: Resources;
  /** The merge Job stops waiting for shards this long after the start (epoch seconds). */
  merge_wait_until_s: number;
  allow_partial: boolean;
  /** The Secret (and its key) holding the API key, given to each shard as $OPENAI_API_KEY. */
  api_key_secret: { name: string; key: string } | null;
}

// DNS-1123: a label (namespaces, and the run name, which prefixes Job names and pod labels) and a
// subdomain (PVC and Secret names).
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
// The longest Job suffix is "-shards": a Job name (a label value on its pods) stays within 63.
const MAX_RUN_NAME = 63 - '-shards'.length;

function dnsName(flag: string, v: string, re: RegExp, max: number): string {
  if (v.length > max || !re.test(v))
    bad(flag, `expected lower-case letters, digits and '-' (at most ${max} characters), got ${JSON.stringify(v)}`);
  return v;
}

function integer(flag: string, v: string | undefined, min: number, max: number, dflt: number): number {
  if (v === undefined) return dflt;
  const n = /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) bad(flag, `expected an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return n;
}

const QUANTITY = /^(\d+(\.\d*)?|\.\d+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;
const FACTOR: Record<string, number> = { m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
for (const [i, s] of ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'].entries()) FACTOR[s] = 1024 ** (i + 1);

/** A Kubernetes quantity's value (to compare a limit with its request); the flag's text is what the manifest keeps. */
function quantity(flag: string, v: string): number {
  const m = QUANTITY.exec(v);
  const n = m ? Number(m[1]) * FACTOR[m[3] ?? ''] : 0;
  if (!m || !(n > 0)) bad(flag, `expected a positive Kubernetes quantity (e.g. 500m, 2, 4Gi), got ${JSON.stringify(v)}`);
  return n;
}

function resources(f: KubeFlags): Resources {
  const cpu = f.cpu ?? KUBE_DEFAULTS.cpu;
  const memory = f.memory ?? KUBE_DEFAULTS.memory;
  const cpuLimit = f['cpu-limit'] ?? cpu;
  const memoryLimit = f['memory-limit'] ?? memory;
  // The requests first: a bad --cpu is named as --cpu, not as the limit it defaults.
  const [cpuN, memoryN] = [quantity('cpu', cpu), quantity('memory', memory)];
  if (quantity('cpu-limit', cpuLimit) < cpuN) bad('cpu-limit', `must be at least --cpu (${cpu}), got ${cpuLimit}`);
  if (quantity('memory-limit', memoryLimit) < memoryN) bad('memory-limit', `must be at least --memory (${memory}), got ${memoryLimit}`);
  return { requests: { cpu, memory }, limits: { cpu: cpuLimit, memory: memoryLimit } };
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** --start-at: ISO 8601 with a zone (pods' clocks agree on UTC, not on a local zone), or epoch seconds. */
export function parseStartAt(v: string): number {
  let ms = NaN;
  if (/^\d+(\.\d+)?$/.test(v)) ms = Number(v) * 1000;
  else if (ISO_8601.test(v)) ms = Date.parse(v);
  if (!Number.isFinite(ms))
    bad('start-at', `expected an ISO 8601 time with a zone (2030-01-01T00:00:00Z) or epoch seconds, got ${JSON.stringify(v)}`);
  return ms / 1000;
}

function startAt(f: KubeFlags, nowMs: number): { start_at: string; start_epoch_s: number } {
  const lead = integer('lead-time', f['lead-time'], 1, 86_400, KUBE_DEFAULTS.lead_time_s);
  if (f['start-at'] === undefined) {
    const s = Math.ceil(nowMs / 1000) + lead;
    return { start_at: new Date(s * 1000).toISOString().replace('.000Z', 'Z'), start_epoch_s: s };
  }
  if (f['lead-time'] !== undefined) bad('lead-time', 'has no meaning with --start-at (which gives the instant itself)');
  const s = parseStartAt(f['start-at']);
  if (s * 1000 < nowMs) bad('start-at', `${f['start-at']} is in the past: the pods could never start together`);
  return { start_at: f['start-at'], start_epoch_s: s };
}

function apiKeySecret(v: string | undefined): KubeSpec['api_key_secret'] {
  if (v === undefined) return null;
  const [name, key = KUBE_DEFAULTS.api_key_secret_key, ...rest] = v.split(':');
  if (rest.length > 0 || !/^[-._a-zA-Z0-9]+$/.test(key)) bad('api-key-secret', `expected NAME or NAME:KEY, got ${JSON.stringify(v)}`);
  return { name: dnsName('api-key-secret', name, DNS_SUBDOMAIN, 253), key };
}

/** Checks `servebench kube`'s own flags; `nowMs` is the wall clock the default start is counted from. */
export function resolveKubeSpec(f: KubeFlags, nowMs: number): KubeSpec {
  if (f.shards === undefined) bad('shards', 'is required: how many pods share the load');
  const shards = integer('shards', f.shards, 1, MAX_SHARDS, 1);
  if (f.image === undefined || f.image.trim() === '') bad('image', 'is required: the servebench image every pod runs (see the Dockerfile)');
  if (/\s/.test(f.image)) bad('image', `must not contain white space, got ${JSON.stringify(f.image)}`);
  const start = startAt(f, nowMs);
  const run = dnsName('run-name', f['run-name'] ?? `servebench-${Math.floor(start.start_epoch_s)}`, DNS_LABEL, MAX_RUN_NAME);
  const pvcSize = f['pvc-size'] ?? null;
  if (pvcSize !== null) quantity('pvc-size', pvcSize);
  if (f['storage-class'] !== undefined && pvcSize === null)
    bad('storage-class', 'needs --pvc-size (it describes the claim kube would create)');
  return {
    shards,
    image: f.image,
    run,
    namespace: f.namespace === undefined ? null : dnsName('namespace', f.namespace, DNS_LABEL, 63),
    pvc: dnsName('pvc', f.pvc ?? KUBE_DEFAULTS.pvc, DNS_SUBDOMAIN, 253),
    pvc_size: pvcSize,
    storage_class: f['storage-class'] === undefined ? null : dnsName('storage-class', f['storage-class'], DNS_SUBDOMAIN, 253),
    ...start,
    resources: resources(f),
    merge_wait_until_s:
      Math.ceil(start.start_epoch_s) + integer('merge-timeout', f['merge-timeout'], 1, 30 * 86_400, KUBE_DEFAULTS.merge_timeout_s),
    allow_partial: f['allow-partial'] ?? false,
    api_key_secret: apiKeySecret(f['api-key-secret']),
  };
}
