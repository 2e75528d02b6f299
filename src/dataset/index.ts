// The one entry point the profile wiring calls: run config + tokenizer → ConversationSource.
// Every dataset problem (missing file, bad line, conflicting type) is raised here, before any
// request is sent.

import { InvalidArgumentError, InvalidFileError } from '../errors.js';
import { PromptSynthesizer } from '../tokenizer/synthesize.js';
import type { TextTokenizer } from '../tokenizer/types.js';
import { warn as projectWarn } from '../warnings.js';
import { scrub } from '../secrets.js';
import type { CustomDatasetType, DatasetConfig } from './config.js';
import type { LoadContext } from './context.js';
import type { Warn } from './entries.js';
import { readDatasetFile, type DatasetText } from './file.js';
import { localInputFile } from './hub-input.js';
import { startsWithArray } from './json-array-stream.js';
import { loadMooncakeTrace } from './mooncake.js';
import { loadMultiTurn } from './multi-turn.js';
import { Rng } from '../model/rng.js';
import { withMedia, type MediaSourceSettings } from './media-source.js';
import { loadShareGpt, loadShareGptArray } from './sharegpt.js';
import { loadAzureTrace } from './traces/azure.js';
import { loadBailianTrace } from './traces/bailian.js';
import { loadBurstGpt } from './traces/burstgpt.js';
import { withSpeedup } from './traces/speedup.js';
import { loadSonnet, SONNET_DEFAULTS } from './sonnet.js';
import { loadSingleTurn } from './single-turn.js';
import type { IndexedSource } from './source.js';
import { createSyntheticSource } from './synthetic-source.js';
import { withEndpointInputs, type EndpointInputSettings } from './endpoint-inputs.js';
import type { ConversationSource } from './types.js';
import { publicSourceSpec } from './public/spec.js';
import { loadPublicSource } from './public/source.js';
import type { HubFiles } from './public/locate.js';
import { defaultHubFiles, githubFiles } from './public/hub-files.js';

export type { ConversationSource, Conversation, ConversationTurn, ChatMessage } from './types.js';

/**
 * The longest token counting of a file's entries may delay the start; past it, the rest are
 * counted as they are drawn, on the send path (about a millisecond or more per prompt).
 */
const PREFETCH_BUDGET_MS = 120_000;
/** Counting that took longer than this is reported, so a slow start is explained. */
const PREFETCH_REPORT_MS = 1000;

/** What making a run's conversation source reads of it (config/types.ts RunConfig has these fields). */
export interface SourceSettings extends MediaSourceSettings, EndpointInputSettings {
  readonly dataset: DatasetConfig;
  readonly isl_mean: number;
  readonly isl_stddev: number;
  readonly osl_mean: number | null;
  readonly osl_stddev: number;
  readonly request_count: number | null;
  readonly benchmark_duration_s: number | null;
  readonly warmup_request_count: number;
  /** The run's --model names: a trace's model column picks among them. */
  readonly targets: { readonly models: readonly string[] };
  /** The load flags that decide whether the run can stop early in a file (load/config.ts LoadConfig). */
  readonly load: {
    readonly warmup_duration_s: number | null;
    readonly cooldown_duration_s: number | null;
    readonly fixed_schedule: boolean | null;
  };
}

/** Guesses a file's format from its first entry (as AIPerf does when no type is given). */
export function detectDatasetType(file: string, text: string): CustomDatasetType {
  if (text.trimStart().startsWith('[')) return 'sharegpt';
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.trim() !== '');
  if (i < 0) throw new InvalidFileError(`${file}: the dataset file has no entries`);
  let first: unknown;
  try {
    first = JSON.parse(lines[i]);
  } catch {
    throw new InvalidFileError(`${file}:${i + 1}: not valid JSON (cannot tell the dataset type; give --custom-dataset-type)`);
  }
  const has = (k: string) => typeof first === 'object' && first !== null && k in first;
  if (has('turns')) return 'multi_turn';
  if (has('conversations')) return 'sharegpt';
  if (has('chat_id') && has('parent_chat_id')) return 'bailian_trace';
  if (has('input_length') || has('hash_ids') || has('text_input')) return 'mooncake_trace';
  return 'single_turn';
}

/**
 * Entries a run can draw at most, when it is sure to stop there: sequential sampling of a run bounded
 * by its request count (a conversation gives at least one request, so N requests draw at most N
 * entries). null: the run may draw them all (a duration, random order, replay, cooldown).
 */
function entriesNeeded(cfg: SourceSettings): number | null {
  const l = cfg.load;
  if (cfg.dataset.sampling_strategy !== 'sequential' || cfg.request_count === null || cfg.benchmark_duration_s !== null) return null;
  if (l.warmup_duration_s !== null || l.cooldown_duration_s !== null || l.fixed_schedule === true) return null;
  return cfg.request_count + cfg.warmup_request_count;
}

export async function createConversationSource(
  cfg: SourceSettings,
  tokenizer: TextTokenizer,
  options: { warn?: Warn; log?: (message: string) => void; hub?: HubFiles } = {},
): Promise<ConversationSource> {
  // Embeddings batches and ranking passages, images and audio (--image-*, --audio-*) ride on whatever source the run has.
  const base = await createBaseSource(cfg, tokenizer, options);
  const speedup = cfg.dataset.fixed_schedule_speedup;
  if (speedup !== 1 && !base.hasTimestamps) {
    throw new InvalidArgumentError(`--fixed-schedule-speedup: the dataset ${cfg.dataset.input_file ?? ''} has no timestamps to replay`);
  }
  return withEndpointInputs(withMedia(withSpeedup(base, speedup), cfg), cfg, tokenizer);
}

async function createBaseSource(
  cfg: SourceSettings,
  tokenizer: TextTokenizer,
  options: { warn?: Warn; log?: (message: string) => void; hub?: HubFiles },
): Promise<ConversationSource> {
  const d = cfg.dataset;
  const warn = options.warn ?? projectWarn;
  const log = options.log ?? ((m: string) => process.stderr.write(scrub(`servebench: ${m}\n`)));
  const systemPrompt =
    d.shared_system_prompt_length > 0
      ? new PromptSynthesizer(tokenizer, new Rng(cfg.random_seed).fork('system')).next(d.shared_system_prompt_length)
      : null;

  // What every file loader reads; `file` names the source in its error lines.
  const contextFor = (file: string): LoadContext => ({
    file,
    tokenizer,
    seed: cfg.random_seed,
    sampling: d.sampling_strategy,
    osl: { mean: cfg.osl_mean, stddev: cfg.osl_stddev },
    systemPrompt,
    warn,
    models: cfg.targets.models,
  });

  if (d.public_dataset !== null || d.hf !== null) {
    const spec = publicSourceSpec(d);
    const ctx = contextFor(spec.kind);
    const hub = spec.host === 'github' ? githubFiles() : (options.hub ?? defaultHubFiles());
    const source = await loadPublicSource(spec, ctx, hub, entriesNeeded(cfg));
    const wanted = cfg.request_count === null ? source.size : Math.min(source.size, cfg.request_count + cfg.warmup_request_count);
    source.prefetch(wanted, PREFETCH_BUDGET_MS);
    return source;
  }

  if (d.input_file === null) {
    return createSyntheticSource(
      {
        isl_mean: cfg.isl_mean,
        isl_stddev: cfg.isl_stddev,
        osl_mean: cfg.osl_mean,
        osl_stddev: cfg.osl_stddev,
        seed: cfg.random_seed,
        seq_dist: d.seq_dist,
        conversation_num: d.conversation_num,
        sampling: d.sampling_strategy,
        turn_mean: d.conversation_turn_mean,
        turn_stddev: d.conversation_turn_stddev,
        turn_delay_mean_ms: d.conversation_turn_delay_mean_ms,
        turn_delay_stddev_ms: d.conversation_turn_delay_stddev_ms,
        num_prefix_prompts: d.num_prefix_prompts,
        prefix_prompt_length: d.prefix_prompt_length,
        system_prompt: systemPrompt,
      },
      tokenizer,
    );
  }

  // A Hub copy (hf://datasets/…) is fetched into the HF cache first; errors name the local file then.
  const file = await localInputFile(d.input_file);
  const ctx = contextFor(file);
  // Only the entries the run can draw are read when that number is known (see entriesNeeded);
  // a trace, a timed dataset or any other run reads the whole file. A sonnet file is sampled line
  // by line: read it whole.
  const needed = d.sonnet !== null ? null : entriesNeeded(cfg);
  let type: CustomDatasetType;
  let source: IndexedSource;
  let read: { complete: boolean; entries: number };
  if (d.custom_dataset_type === 'burst_gpt_trace' || d.custom_dataset_type === 'azure_llm_trace') {
    // CSV traces are parsed as a stream of rows, whole (a replay needs every row, in time order).
    type = d.custom_dataset_type;
    source = await (type === 'burst_gpt_trace' ? loadBurstGpt(ctx) : loadAzureTrace(ctx));
    read = { complete: true, entries: source.size };
  } else if ((d.custom_dataset_type === null || d.custom_dataset_type === 'sharegpt') && (await startsWithArray(file))) {
    // A JSON array (ShareGPT) is streamed, never held as one text: a file of any size loads.
    type = 'sharegpt';
    const streamed = await loadShareGptArray(ctx, d.sharegpt_multi_turn, needed);
    source = streamed.source;
    read = streamed;
  } else {
    ({ type, source, read } = await loadText(cfg, ctx, needed));
  }
  if (!read.complete) {
    log(
      `${file}: read its first ${read.entries} entries only, all this run can send (sequential sampling, --request-count${cfg.warmup_request_count > 0 ? ' + --warmup-request-count' : ''}); the rest of the file is not read or checked`,
    );
  }
  // Count the tokens of the entries the run needs now, not on the send path (a duration-bound
  // run may need them all).
  const wanted = cfg.request_count === null ? source.size : Math.min(source.size, cfg.request_count + cfg.warmup_request_count);
  const t0 = performance.now();
  const counted = source.prefetch(wanted, PREFETCH_BUDGET_MS);
  const ms = performance.now() - t0;
  if (ms > PREFETCH_REPORT_MS) {
    const rest = counted < wanted ? `; the other ${wanted - counted} are counted as they are sent` : '';
    log(`${file}: counted the tokens of ${counted} ${type} entries in ${(ms / 1000).toFixed(1)} s${rest}`);
  }
  return source;
}

/** A JSONL (or other text) dataset: read as text, at most MAX_DATASET_ENTRIES entries. */
async function loadText(
  cfg: SourceSettings,
  ctx: LoadContext,
  needed: number | null,
): Promise<{ type: CustomDatasetType; source: IndexedSource; read: DatasetText }> {
  const d = cfg.dataset;
  const file = ctx.file;
  let read = await readDatasetFile(file, needed);
  const type = d.custom_dataset_type ?? detectDatasetType(file, read.text);
  // A trace's sessions may spread over the whole file: read it whole.
  if (!read.complete && (type === 'mooncake_trace' || type === 'bailian_trace')) read = await readDatasetFile(file);
  if (d.sharegpt_multi_turn && type !== 'sharegpt') {
    throw new InvalidArgumentError(`--sharegpt-multi-turn: cannot be combined with --input-file ${file} (a ${type} dataset)`);
  }
  const load = (text: string, c: LoadContext = ctx): IndexedSource => {
    switch (type) {
      case 'single_turn':
        return loadSingleTurn(c, text);
      case 'multi_turn':
        return loadMultiTurn(c, text);
      case 'mooncake_trace':
        return loadMooncakeTrace(c, text);
      case 'sharegpt':
        return loadShareGpt(c, text, d.sharegpt_multi_turn);
      case 'bailian_trace':
        return loadBailianTrace(c, text);
      case 'sonnet': {
        const { input_len, output_len } = d.sonnet ?? { input_len: SONNET_DEFAULTS.input_len, output_len: SONNET_DEFAULTS.output_len };
        const count = cfg.request_count === null ? 1000 : cfg.request_count + cfg.warmup_request_count;
        return loadSonnet(c, text, { inputLen: input_len, outputLen: output_len, count });
      }
      default:
        throw new InvalidArgumentError(`--custom-dataset-type: ${type} is not a JSONL format`);
    }
  };
  // The warnings of a first look at part of the file wait: it may be read again whole.
  const held: Parameters<Warn>[] = [];
  let source = load(read.text, read.complete ? ctx : { ...ctx, warn: (...a: Parameters<Warn>) => held.push(a) });
  // A timed dataset is sorted and replayed: read it whole.
  if (!read.complete && source.hasTimestamps) {
    read = await readDatasetFile(file);
    source = load(read.text);
  } else for (const a of held) ctx.warn(...a);
  return { type, source, read };
}
