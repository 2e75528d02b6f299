// What every dataset gives the scheduler. Synthetic today; JSONL, traces and ShareGPT
// (issue 5) implement the same interface.

import type { Turn } from '../model/turn.js';
import type { TurnMedia } from '../model/media.js';

export interface Dataset {
  /** Short name for logs and the exported config (e.g. 'synthetic'). */
  readonly kind: string;
  /**
   * Number of distinct turns for a finite dataset, null for an endless generator.
   * next() never runs out: a finite dataset starts again from its first turn.
   */
  readonly size: number | null;
  next(): Turn;
}

/** Synthetic prompts with normally distributed input and output lengths. */
export interface SyntheticConfig {
  /** Mean prompt length in tokens (--isl); a positive integer. */
  isl_mean: number;
  /** Standard deviation of the prompt length (--isl-stddev); 0 gives every prompt isl_mean tokens. */
  isl_stddev: number;
  /** Mean requested output length (--osl, sent as max_tokens); null lets the server decide. */
  osl_mean: number | null;
  osl_stddev: number;
  /** --random-seed: the same seed and config give the same turns, run after run. */
  seed: number;
  /** Distinct turns to generate, then repeat (finite dataset); undefined: a fresh turn every time. */
  count?: number;
}

// ---- Conversations (issue 5): the contract between datasets and the scheduler. ----
// Every dataset yields conversations; a single-turn dataset yields conversations of one turn.
// The scheduler (src/load) decides when each turn is sent; for multi-turn it builds the
// history (previous user turns + the assistant's actual replies) into Turn.messages at send time.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ConversationTurn {
  /** The new user input of this turn. */
  prompt: string;
  /** Its length in tokens under the run's tokenizer, when known. */
  isl: number | null;
  /** Requested output length (max_tokens), or null to let the server decide. */
  max_tokens: number | null;
  /** Messages given verbatim by a single-turn dataset (e.g. a system + user pair); replaces prompt. */
  messages?: ChatMessage[];
  /** Trace replay: when to send this turn, in ms from the trace start (absolute schedule). */
  timestamp_ms: number | null;
  /** Multi-turn: think time in ms between the previous turn's completion and this turn. */
  delay_ms: number | null;
  /** The --model this turn goes to, picked by a trace's model column (dataset/traces/trace.ts); absent: the run's choice. */
  model?: string;
  /** Trace block hashes of this turn's prompt (mooncake `hash_ids`). */
  hash_ids?: readonly number[];
  /** Texts sent with the prompt (embeddings batch, ranking passages); see model/turn.ts Turn. */
  inputs?: readonly string[];
  /** Images and audio sent with this turn (media-source.ts). */
  media?: TurnMedia;
}

export interface Conversation {
  id: string;
  /** Sent as the first (system) message of every turn, when set. */
  system_prompt?: string;
  turns: ConversationTurn[];
}

export interface ConversationSource {
  /** Short name for logs and the exported config ('synthetic', 'single_turn', 'mooncake_trace', …). */
  readonly kind: string;
  /** Number of distinct conversations for a finite source, null for an endless generator. */
  readonly size: number | null;
  /** True when turns carry timestamp_ms (fixed-schedule replay is then the default). */
  readonly hasTimestamps: boolean;
  /** True when every conversation is one turn (no request waits for another's reply); absent: not known. */
  readonly singleTurn?: boolean;
  /** The next conversation per the sampling strategy; a finite source wraps around. */
  next(): Conversation;
  /** Moves past the next conversation without building it (a shard skipping the others' draws). */
  skip?(): void;
}
