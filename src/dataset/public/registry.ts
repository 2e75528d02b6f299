// The public datasets `--public-dataset NAME` names: one declaration per entry, each from the same
// Hub repository, revision, files and columns as the peer whose loader it follows (cited in
// `follows`), so that a run over it compares with theirs. How a row becomes a conversation is the
// entry's `rows` mapping (mapping.ts applies it); where its files come from is `data` (locate.ts).

/** Where an entry's rows live on the Hub. */
export type DataFiles =
  /** One file of the repo (JSON array, JSONL, CSV or Parquet, by its extension). */
  | { file: string }
  /** A subset and split: the repo's own Parquet files for it, else the Hub's converted Parquet branch. */
  | { subset: string | null; split: string };

/** How one row becomes a conversation. */
export type RowMapping =
  /** vLLM's ShareGPTDataset: messages [0] and [1] of `conversations` (≥ 2 messages) are prompt and reply. */
  | { kind: 'sharegpt' }
  /** One text column is the prompt (AIPerf's HFInstructionResponseDatasetLoader); optionally an image column. */
  | { kind: 'prompt'; column: string; image?: string }
  /** The first message of a conversation column is the prompt (AIPerf's HFConversationDatasetLoader). */
  | { kind: 'first-message'; column: string; contentKey: string; image?: string }
  /** SPEED-Bench: each of `turns` is a user turn (AIPerf maps them to user messages); `category` keeps only that category's rows. */
  | { kind: 'speed-bench'; category?: string }
  /** Spec-Bench: the first of `turns` is the prompt. */
  | { kind: 'spec-bench' }
  /** MMVU: the question and its lettered choices (AIPerf's MMVUDatasetLoader, after vLLM). */
  | { kind: 'mmvu' }
  /** vLLM's BurstGPTDataset: GPT-4 rows with a response; prompts synthesized to `Request tokens`, max_tokens `Response tokens`. */
  | { kind: 'burstgpt' };

export interface PublicDataset {
  readonly name: string;
  /** Hub dataset id; on `host: 'github'`, a GitHub owner/name whose raw file is read. */
  readonly repo: string;
  /** Where the repo lives: the Hugging Face Hub (default), or GitHub (Spec-Bench ships no Hub copy). */
  readonly host?: 'hub' | 'github';
  readonly revision: string;
  readonly data: DataFiles;
  readonly rows: RowMapping;
  /** Rows in the published dataset (its card), for `servebench datasets`; null when not published. */
  readonly size: number | null;
  /** What a run over it exercises, in a few words. */
  readonly exercises: string;
  /** The peer loader it follows, by name. */
  readonly follows: string;
}

const AIPERF_PROMPT = "AIPerf's HFInstructionResponseDatasetLoader";
const AIPERF_CONVERSATION = "AIPerf's HFConversationDatasetLoader";
const AIPERF_SPEED = "AIPerf's SpeedBenchLoader";

/** SPEED-Bench's prompts as AIPerf pins them (speed_bench_public.py SPEED_BENCH_REVISION). */
const SPEED_BENCH_REVISION = '487aa718444e816458d1a0a52bfce7a454285cf4';
const SPEED_QUALITATIVE = [
  'coding',
  'humanities',
  'math',
  'multilingual',
  'qa',
  'rag',
  'reasoning',
  'roleplay',
  'stem',
  'summarization',
  'writing',
] as const;
const SPEED_LENGTHS = ['1k', '2k', '8k', '16k', '32k'] as const;
const SPEED_ENTROPY = ['low_entropy', 'mixed', 'high_entropy'] as const;

function speedBench(name: string, subset: string, category: string | undefined, size: number, exercises: string): PublicDataset {
  return {
    name,
    repo: 'nvidia/SPEED-Bench',
    revision: SPEED_BENCH_REVISION,
    data: { subset, split: 'test' },
    rows: category === undefined ? { kind: 'speed-bench' } : { kind: 'speed-bench', category },
    size,
    exercises,
    follows: AIPERF_SPEED,
  };
}

function aimo(name: string, repo: string, size: number, exercises: string): PublicDataset {
  return {
    name,
    repo,
    revision: 'main',
    data: { subset: null, split: 'train' },
    rows: { kind: 'prompt', column: 'problem' },
    size,
    exercises,
    follows: AIPERF_PROMPT,
  };
}

function blazedit(name: string, repo: string, exercises: string): PublicDataset {
  return {
    name,
    repo,
    revision: 'main',
    data: { subset: null, split: 'train' },
    rows: { kind: 'prompt', column: 'change_request' },
    size: null,
    exercises,
    follows: "AIPerf's blazedit entries (change_request as the prompt)",
  };
}

export const PUBLIC_DATASETS: readonly PublicDataset[] = Object.freeze([
  {
    name: 'sharegpt',
    repo: 'anon8231489123/ShareGPT_Vicuna_unfiltered',
    revision: 'main',
    data: { file: 'ShareGPT_V3_unfiltered_cleaned_split.json' },
    rows: { kind: 'sharegpt' },
    size: 94145,
    exercises: 'chat: real prompts, output lengths of the recorded replies',
    follows: "vLLM's ShareGPTDataset (vllm/benchmarks/datasets)",
  },
  aimo('aimo', 'AI-MO/NuminaMath-TIR', 72441, 'math reasoning prompts (tool-integrated), long outputs'),
  aimo('aimo_aime', 'AI-MO/aimo-validation-aime', 90, 'AIME competition problems, long reasoning outputs'),
  aimo('aimo_numina_cot', 'AI-MO/NuminaMath-CoT', 859494, 'chain-of-thought math prompts'),
  aimo('aimo_numina_1_5', 'AI-MO/NuminaMath-1.5', 896215, 'competition math prompts (NuminaMath 1.5)'),
  {
    name: 'mmstar',
    repo: 'Lin-Chen/MMStar',
    revision: 'main',
    data: { subset: null, split: 'val' },
    rows: { kind: 'prompt', column: 'question', image: 'image' },
    size: 1500,
    exercises: 'vision: one image and a multiple-choice question',
    follows: AIPERF_PROMPT,
  },
  {
    name: 'mmvu',
    repo: 'yale-nlp/MMVU',
    revision: 'main',
    data: { subset: null, split: 'validation' },
    rows: { kind: 'mmvu' },
    size: 1000,
    exercises: 'video questions with lettered choices (the video URL is not sent: no video input yet)',
    follows: "AIPerf's MMVUDatasetLoader",
  },
  {
    name: 'vision_arena',
    repo: 'lmarena-ai/VisionArena-Chat',
    revision: 'main',
    data: { subset: null, split: 'train' },
    rows: { kind: 'first-message', column: 'conversation', contentKey: 'content', image: 'images' },
    size: 200000,
    exercises: 'vision chat: real user questions about an image',
    follows: AIPERF_CONVERSATION,
  },
  {
    name: 'llava_onevision',
    repo: 'lmms-lab/LLaVA-OneVision-Data',
    revision: 'main',
    data: { subset: 'sharegpt4o', split: 'train' },
    rows: { kind: 'first-message', column: 'conversations', contentKey: 'value', image: 'image' },
    size: 57284,
    exercises: 'vision: image description prompts (sharegpt4o subset)',
    follows: AIPERF_CONVERSATION,
  },
  speedBench('speed_bench_qualitative', 'qualitative', undefined, 880, 'speculative decoding: all 11 semantic categories'),
  ...SPEED_QUALITATIVE.map((c) => speedBench(`speed_bench_${c}`, 'qualitative', c, 80, `speculative decoding acceptance: ${c} prompts`)),
  ...SPEED_LENGTHS.flatMap((len) => [
    speedBench(`speed_bench_throughput_${len}`, `throughput_${len}`, undefined, 1536, `speculative decoding throughput at ~${len} ISL`),
    ...SPEED_ENTROPY.map((e) =>
      speedBench(
        `speed_bench_throughput_${len}_${e}`,
        `throughput_${len}`,
        e,
        512,
        `speculative decoding throughput at ~${len} ISL, ${e.replace('_', ' ')}`,
      ),
    ),
  ]),
  {
    name: 'spec_bench',
    repo: 'hemingkx/Spec-Bench',
    host: 'github',
    revision: 'fd2c1cd7d2201ef71db4c5f4e455008f017967bf',
    data: { file: 'data/spec_bench/question.jsonl' },
    rows: { kind: 'spec-bench' },
    size: 480,
    exercises: 'speculative decoding: 6 task categories (first turn of each question)',
    follows: "AIPerf's SpecBenchLoader",
  },
  {
    name: 'instruct_coder',
    repo: 'likaixin/InstructCoder',
    revision: 'main',
    data: { subset: null, split: 'train' },
    rows: { kind: 'prompt', column: 'instruction' },
    size: 108391,
    exercises: 'code editing instructions',
    follows: AIPERF_PROMPT,
  },
  blazedit('blazedit_5k', 'vdaita/edit_5k_char', 'code change requests over ~5k-character files'),
  blazedit('blazedit_10k', 'vdaita/edit_10k_char', 'code change requests over ~10k-character files'),
  {
    name: 'burstgpt',
    repo: 'lzzmm/BurstGPT',
    revision: 'main',
    data: { file: 'data/BurstGPT_without_fails_2.csv' },
    rows: { kind: 'burstgpt' },
    size: null,
    exercises: 'production request/response lengths (GPT-4 rows), synthetic prompts',
    follows: "vLLM's BurstGPTDataset",
  },
]);

/** The entry named `name`, or undefined. */
export function publicDataset(name: string): PublicDataset | undefined {
  return PUBLIC_DATASETS.find((d) => d.name === name);
}

export const PUBLIC_DATASET_NAMES: readonly string[] = PUBLIC_DATASETS.map((d) => d.name);
