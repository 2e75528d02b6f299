// A turn: what the dataset produces and the endpoint adapter turns into a request body.
import type { TurnMedia } from './media.js';

/** What the dataset produces and the endpoint adapter turns into a request body. */
export interface Turn {
  /** Prompt text (single user message for chat; raw prompt for completions). */
  prompt: string;
  /** Prompt length in tokens under the run's tokenizer, when known at synthesis time. */
  isl: number | null;
  /** Requested output length (sent as max_tokens), or null to let the server decide. */
  max_tokens: number | null;
  /** Full message list for chat (history of a multi-turn session, or messages from a dataset). */
  messages?: { role: 'system' | 'user' | 'assistant'; content: string }[];
  /** Multi-turn: which conversation and which turn of it. */
  session_id?: string;
  turn_index?: number;
  /** Trace block hashes of the prompt (mooncake `hash_ids`), for the theoretical prefix-cache hit rate. */
  hash_ids?: readonly number[];
  /** The --model this request goes to, named by the dataset (a trace's model column); absent: the router picks. */
  model?: string;
  /** Texts sent with the prompt: the rest of an embeddings batch, or the passages ranked against it (dataset/endpoint-inputs.ts). */
  inputs?: readonly string[];
  /** Images and audio sent with the prompt (dataset/media-source.ts). */
  media?: TurnMedia;
}
