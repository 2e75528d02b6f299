// The dataset part of the run config: custom files, synthetic multi-turn, prefix sharing and
// length mixtures. Parsed from the `profile` flags here, so the rules (and the conflicts
// between flags) live in one place; config/validate.ts calls parseDatasetFlags.

import { MAX_PROMPT_TOKENS } from '../tokenizer/synthesize.js';
import { badFlag as bad, flagConflict as conflict } from '../errors.js';
import { PUBLIC_DATASET_NAMES, publicDataset } from './public/registry.js';
import { SONNET_DEFAULTS } from './sonnet.js';
import { SAMPLING_STRATEGIES, type SamplingStrategy } from './sampling.js';
import { parseSeqDist, type SeqDistEntry } from './seq-dist.js';

export type CustomDatasetType =
  'single_turn' | 'multi_turn' | 'mooncake_trace' | 'sharegpt' | 'sonnet' | 'burst_gpt_trace' | 'azure_llm_trace' | 'bailian_trace';
export const CUSTOM_DATASET_TYPES: readonly CustomDatasetType[] = [
  'single_turn',
  'multi_turn',
  'mooncake_trace',
  'sharegpt',
  'sonnet',
  'burst_gpt_trace',
  'azure_llm_trace',
  'bailian_trace',
];
/** Production traces (dataset/traces/): never guessed from a file's content, always named. */
export const TRACE_DATASET_TYPES: readonly CustomDatasetType[] = ['burst_gpt_trace', 'azure_llm_trace', 'bailian_trace'];

/** Any Hub dataset by id (--hf-dataset and its --hf-* flags). */
export interface HfDatasetConfig {
  readonly repo: string;
  readonly subset: string | null;
  readonly split: string;
  readonly revision: string;
  /** null: the first of the usual prompt columns the data has (mapping.ts PROMPT_COLUMNS). */
  readonly prompt_column: string | null;
  readonly output_len_column: string | null;
}

/** --isl's default (config/defaults.ts DEFAULTS.isl_mean). */
export const DEFAULT_ISL = 128;

export interface DatasetConfig {
  readonly input_file: string | null;
  /** --public-dataset: a registry entry's name (public/registry.ts). */
  readonly public_dataset: string | null;
  /** --custom-dataset-type sonnet: vLLM's input and output lengths (--isl, --osl; else vLLM's 550 and 150). */
  readonly sonnet: { readonly input_len: number; readonly output_len: number } | null;
  /** --hf-dataset, or the --hf-subset/--hf-split/--hf-revision overrides of a --public-dataset. */
  readonly hf: HfDatasetConfig | null;
  /** null with an input file: inferred from the file's content when it is loaded. */
  readonly custom_dataset_type: CustomDatasetType | null;
  readonly sampling_strategy: SamplingStrategy;
  /** ShareGPT: every human turn of a conversation is a turn (default: the first one only). */
  readonly sharegpt_multi_turn: boolean;
  /** Synthetic: distinct conversations, replayed per the sampling strategy; null: a fresh one every time. */
  readonly conversation_num: number | null;
  readonly conversation_turn_mean: number;
  readonly conversation_turn_stddev: number;
  readonly conversation_turn_delay_mean_ms: number;
  readonly conversation_turn_delay_stddev_ms: number;
  /** Synthetic: a pool of shared prefixes (0: off); each conversation's first turn starts with one. */
  readonly num_prefix_prompts: number;
  readonly prefix_prompt_length: number;
  /** One system prompt of this many tokens for every conversation (0: none). */
  readonly shared_system_prompt_length: number;
  readonly seq_dist: readonly SeqDistEntry[] | null;
  /** --fixed-schedule-speedup: a timed dataset replayed this many times as fast (1: as recorded). */
  readonly fixed_schedule_speedup: number;
}

/** The flags this module reads, as yargs hands them over (isl/osl only to check conflicts). */
export interface DatasetFlags {
  'input-file'?: string;
  'public-dataset'?: string;
  'hf-dataset'?: string;
  'hf-subset'?: string;
  'hf-split'?: string;
  'hf-revision'?: string;
  'hf-prompt-column'?: string;
  'hf-output-len-column'?: string;
  'custom-dataset-type'?: string;
  'dataset-sampling-strategy'?: string;
  'sharegpt-multi-turn'?: boolean;
  'conversation-num'?: number;
  'conversation-turn-mean'?: number;
  'conversation-turn-stddev'?: number;
  'conversation-turn-delay-mean'?: number;
  'conversation-turn-delay-stddev'?: number;
  'num-prefix-prompts'?: number;
  'prefix-prompt-length'?: number;
  'shared-system-prompt-length'?: number;
  'seq-dist'?: string;
  'fixed-schedule-speedup'?: number;
  isl?: number;
  'isl-stddev'?: number;
  osl?: number;
  'osl-stddev'?: number;
}

function num(flag: string, v: unknown, min: number, integer: boolean): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(flag, `expected a number, got ${String(v)}`);
  if (integer && !Number.isInteger(v)) bad(flag, `expected an integer, got ${v}`);
  if (v < min) bad(flag, `must be at least ${min}, got ${v}`);
  return v;
}

/** A prompt length in tokens (prefixes, the shared system prompt): at most MAX_PROMPT_TOKENS. */
function tokens(flag: string, v: unknown): number {
  const n = num(flag, v, 0, true);
  if (n > MAX_PROMPT_TOKENS) bad(flag, `must be at most ${MAX_PROMPT_TOKENS} tokens, got ${n}`);
  return n;
}

const opt = <T>(v: T | undefined, parse: (v: T) => number): number | null => (v === undefined ? null : parse(v));

/** Flags that describe synthetic prompts, so a dataset file makes them meaningless. */
const SYNTHETIC_ONLY = [
  'isl',
  'isl-stddev',
  'seq-dist',
  'conversation-num',
  'conversation-turn-mean',
  'conversation-turn-stddev',
  'conversation-turn-delay-mean',
  'conversation-turn-delay-stddev',
  'num-prefix-prompts',
  'prefix-prompt-length',
] as const;

const HF_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

function nonEmpty(flag: string, v: string | undefined): string | null {
  if (v === undefined) return null;
  if (String(v).trim() === '') bad(flag, 'must not be empty');
  return String(v);
}

/** --public-dataset and --hf-*: which Hub dataset, and what overrides its registry declaration. */
function parsePublicFlags(f: DatasetFlags, file: string | null): { publicName: string | null; hf: HfDatasetConfig | null } {
  const name = nonEmpty('public-dataset', f['public-dataset']);
  const repo = nonEmpty('hf-dataset', f['hf-dataset']);
  if (name !== null && file !== null) conflict('public-dataset', 'input-file');
  if (repo !== null && file !== null) conflict('hf-dataset', 'input-file');
  if (name !== null && repo !== null) conflict('public-dataset', 'hf-dataset');
  const entry = name === null ? undefined : publicDataset(name);
  if (name !== null && entry === undefined)
    bad('public-dataset', `unknown dataset ${JSON.stringify(name)}; valid: ${PUBLIC_DATASET_NAMES.join(', ')}`);
  for (const flag of ['hf-prompt-column', 'hf-output-len-column'] as const)
    if (f[flag] !== undefined && repo === null) conflict(flag, 'hf-dataset', 'needs');
  for (const flag of ['hf-subset', 'hf-split', 'hf-revision'] as const)
    if (f[flag] !== undefined && repo === null && name === null) conflict(flag, 'hf-dataset or --public-dataset', 'needs');
  if (repo !== null && !HF_ID.test(repo)) bad('hf-dataset', `expected a Hub dataset id org/name, got ${JSON.stringify(repo)}`);
  const subset = nonEmpty('hf-subset', f['hf-subset']);
  const split = nonEmpty('hf-split', f['hf-split']);
  const revision = nonEmpty('hf-revision', f['hf-revision']);
  if (entry !== undefined && 'file' in entry.data && (subset !== null || split !== null))
    bad(subset !== null ? 'hf-subset' : 'hf-split', `${name} is one file (${entry.data.file}), not a subset/split`);
  if (repo === null && subset === null && split === null && revision === null) return { publicName: name, hf: null };
  const declared = entry !== undefined && !('file' in entry.data) ? entry.data : null;
  return {
    publicName: name,
    hf: Object.freeze({
      repo: repo ?? (entry as { repo: string }).repo,
      subset: subset ?? declared?.subset ?? null,
      split: split ?? declared?.split ?? 'train',
      revision: revision ?? entry?.revision ?? 'main',
      prompt_column: nonEmpty('hf-prompt-column', f['hf-prompt-column']),
      output_len_column: nonEmpty('hf-output-len-column', f['hf-output-len-column']),
    }),
  };
}

/** Parses and cross-checks the dataset flags; throws InvalidArgumentError naming the flag(s). */
export function parseDatasetFlags(f: DatasetFlags): DatasetConfig {
  const file = f['input-file'] ?? null;
  if (file !== null && file.trim() === '') bad('input-file', 'must not be empty');
  let type: CustomDatasetType | null = null;
  if (f['custom-dataset-type'] !== undefined) {
    if (file === null) conflict('custom-dataset-type', 'input-file', 'needs');
    if (!CUSTOM_DATASET_TYPES.includes(f['custom-dataset-type'] as CustomDatasetType)) {
      bad('custom-dataset-type', `expected one of ${CUSTOM_DATASET_TYPES.join(', ')}, got ${JSON.stringify(f['custom-dataset-type'])}`);
    }
    type = f['custom-dataset-type'] as CustomDatasetType;
  }
  const { publicName, hf } = parsePublicFlags(f, file);
  const source = file !== null ? 'input-file' : publicName !== null ? 'public-dataset' : hf !== null ? 'hf-dataset' : null;
  if (source !== null) {
    for (const flag of SYNTHETIC_ONLY)
      // A sonnet file is sampled to --isl tokens, as vLLM's --sonnet-input-len.
      if (f[flag] !== undefined && !(type === 'sonnet' && flag === 'isl'))
        conflict(flag, source, 'describes synthetic prompts; it cannot be combined with');
  }

  const sharegptMulti = f['sharegpt-multi-turn'] ?? false;
  if (sharegptMulti) {
    if (file === null) conflict('sharegpt-multi-turn', 'input-file', 'needs');
    if (type !== null && type !== 'sharegpt') conflict('sharegpt-multi-turn', `custom-dataset-type ${type}`, 'cannot be combined with');
  }

  const conversationNum = opt(f['conversation-num'], (v) => num('conversation-num', v, 1, true));
  let sampling: SamplingStrategy = 'sequential';
  if (f['dataset-sampling-strategy'] !== undefined) {
    if (!SAMPLING_STRATEGIES.includes(f['dataset-sampling-strategy'] as SamplingStrategy)) {
      bad(
        'dataset-sampling-strategy',
        `expected one of ${SAMPLING_STRATEGIES.join(', ')}, got ${JSON.stringify(f['dataset-sampling-strategy'])}`,
      );
    }
    // An endless synthetic source has nothing to sample from.
    if (source === null && conversationNum === null) conflict('dataset-sampling-strategy', 'input-file or --conversation-num', 'needs');
    sampling = f['dataset-sampling-strategy'] as SamplingStrategy;
  }

  let seqDist: SeqDistEntry[] | null = null;
  if (f['seq-dist'] !== undefined) {
    for (const flag of ['isl', 'isl-stddev', 'osl', 'osl-stddev'] as const) {
      if (f[flag] !== undefined) conflict('seq-dist', flag, 'sets the lengths itself; it cannot be combined with');
    }
    seqDist = parseSeqDist(String(f['seq-dist']));
  }

  const numPrefix = opt(f['num-prefix-prompts'], (v) => num('num-prefix-prompts', v, 0, true)) ?? 0;
  const prefixLen = opt(f['prefix-prompt-length'], (v) => tokens('prefix-prompt-length', v)) ?? 0;
  if (numPrefix > 0 && prefixLen === 0) conflict('num-prefix-prompts', 'prefix-prompt-length', 'needs');
  if (prefixLen > 0 && numPrefix === 0) conflict('prefix-prompt-length', 'num-prefix-prompts', 'needs');
  if (prefixLen > 0) {
    // Every prompt is its prefix plus at least one token of its own, within the same ISL.
    if (seqDist) {
      const short = seqDist.find((e) => e.isl <= prefixLen);
      if (short) bad('prefix-prompt-length', `must be below every --seq-dist ISL (${prefixLen} >= ${short.isl})`);
    } else {
      const isl = f.isl ?? DEFAULT_ISL;
      if (prefixLen >= isl) bad('prefix-prompt-length', `must be below --isl (${prefixLen} >= ${isl})`);
    }
  }

  let speedup = 1;
  if (f['fixed-schedule-speedup'] !== undefined) {
    const v = f['fixed-schedule-speedup'];
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
      bad('fixed-schedule-speedup', `expected a number above 0, got ${String(v)}`);
    if (file === null) conflict('fixed-schedule-speedup', 'input-file', 'needs a trace; give');
    speedup = v;
  }

  return Object.freeze({
    input_file: file,
    public_dataset: publicName,
    hf,
    sonnet:
      type === 'sonnet'
        ? Object.freeze({
            input_len: opt(f.isl, (v) => tokens('isl', v)) ?? SONNET_DEFAULTS.input_len,
            output_len: opt(f.osl, (v) => num('osl', v, 1, true)) ?? SONNET_DEFAULTS.output_len,
          })
        : null,
    custom_dataset_type: type,
    sampling_strategy: sampling,
    sharegpt_multi_turn: sharegptMulti,
    conversation_num: conversationNum,
    conversation_turn_mean: opt(f['conversation-turn-mean'], (v) => num('conversation-turn-mean', v, 1, false)) ?? 1,
    conversation_turn_stddev: opt(f['conversation-turn-stddev'], (v) => num('conversation-turn-stddev', v, 0, false)) ?? 0,
    conversation_turn_delay_mean_ms: opt(f['conversation-turn-delay-mean'], (v) => num('conversation-turn-delay-mean', v, 0, false)) ?? 0,
    conversation_turn_delay_stddev_ms:
      opt(f['conversation-turn-delay-stddev'], (v) => num('conversation-turn-delay-stddev', v, 0, false)) ?? 0,
    num_prefix_prompts: numPrefix,
    prefix_prompt_length: prefixLen,
    shared_system_prompt_length: opt(f['shared-system-prompt-length'], (v) => tokens('shared-system-prompt-length', v)) ?? 0,
    seq_dist: seqDist,
    fixed_schedule_speedup: speedup,
  });
}
