// Where the GPU vendor libraries are looked for, and how their load results read to a user.
import type { PowerLibraryStatus } from '../native.js';

export const NVML_ENV = 'SERVEBENCH_NVML_LIBRARY';
export const AMDSMI_ENV = 'SERVEBENCH_AMDSMI_LIBRARY';

/** Default dlopen names: the driver installs libnvidia-ml.so.1 on the loader path; ROCm puts AMD SMI under /opt/rocm. */
const NVML_DEFAULTS = ['libnvidia-ml.so.1'];
const AMDSMI_DEFAULTS = ['libamd_smi.so', '/opt/rocm/lib/libamd_smi.so'];

export interface LibraryChoice {
  /** Candidate paths, tried in order. */
  paths: string[];
  /** Set when the path came from the environment (a failure to load it is always reported). */
  fromEnv: string | null;
}

export function nvmlLibrary(env: NodeJS.ProcessEnv = process.env): LibraryChoice {
  const p = env[NVML_ENV];
  return p ? { paths: [p], fromEnv: NVML_ENV } : { paths: NVML_DEFAULTS, fromEnv: null };
}

export function amdsmiLibrary(env: NodeJS.ProcessEnv = process.env): LibraryChoice {
  const p = env[AMDSMI_ENV];
  return p ? { paths: [p], fromEnv: AMDSMI_ENV } : { paths: AMDSMI_DEFAULTS, fromEnv: null };
}

/** One line saying why a library gave no telemetry, naming the env variable when it set the path. */
export function describeLibraryFailure(what: 'NVML' | 'AMD SMI', choice: LibraryChoice, s: PowerLibraryStatus): string {
  const where = choice.fromEnv ? `${choice.fromEnv}=${s.path}` : s.path || choice.paths.join(' or ');
  switch (s.state) {
    case 'not_found':
      return `${what}: cannot load ${where} (${s.message})`;
    case 'invalid':
      return `${what}: ${where} is ${s.message}`;
    case 'init_failed':
    case 'no_devices':
      return `${what} (${where}): ${s.message}`;
    default:
      return `${what} (${where}): ${s.state}${s.message ? ` (${s.message})` : ''}`;
  }
}
