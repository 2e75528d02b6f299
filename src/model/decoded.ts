// Decoded events: what crosses the boundary for the native SSE decode (native/wire/sse_decode.h), the
// field paths an endpoint adapter declares and what the decoder hands back per response. On the
// ground floor so that native-types.ts, endpoints/ and records/ all type it from below.

/** A value the native decoder looks for: the first source whose path reaches an object (`present`: anything but null). */
export interface DecodeSource {
  path: string;
  test: 'object' | 'present';
}

/**
 * What parse() reads from an SSE event, as field paths, for the native decoder (native/wire/sse_decode.h),
 * which decodes events where they are framed and must give exactly what parse() gives. Paths are
 * dot-separated steps: `key`, `key[*]` (each array element, the first match wins), `(a|b)` (the
 * first of these keys whose value is not null, as `a ?? b`).
 */
export interface DecodeSpec {
  /** The choices array; has_choices: it is a non-empty array. */
  choices: string;
  /** Within each choice, the object holding its texts ('' for the choice itself). */
  message: string;
  /** Within that object: the first non-empty string is the choice's content / reasoning text. */
  content: string[];
  reasoning: string[];
  /** The payload's usage: its JSON text goes to usageOfPayload as `{<path>: value}`. */
  usage: DecodeSource[];
  /** Present and not null: an error event (decided by parse()). */
  error: string;
  /** The payload's spec-decode stats: its JSON text goes to specDecodeOfPayload, wrapped in its path. */
  spec_decode: DecodeSource[];
  /** From the payload: the first non-empty string is its finish reason; the last payload with one gives the record's ([] : none). */
  finish: string[];
}

/** A JSON value's text handed back by the native decoder (see DecodeSpec above). */
export interface DecodedSlice {
  /** Index of the event in the response. */
  event: number;
  /** Which of the spec's sources (usage or spec_decode) it is. */
  source: number;
  /** Usage: the last decoded event's usage / the usage of the first token-bearing event. */
  last: boolean;
  first_token: boolean;
  text: string;
}

/** One response's decoded SSE events (native/wire/sse_decode.h RecordDecode). */
export interface DecodedStream {
  /** Every event framed, [DONE] and the tail included. */
  events: number;
  /** Events from the first one the native decoder left undecided on: the last `tail` of event_data. */
  tail: number;
  /** Content and reasoning texts of the decoded events, concatenated. */
  content: string;
  reasoning: string;
  /** The finish reason of the last decoded event that had one (DecodeSpec.finish); null: none. */
  finish_reason: string | null;
  /** Stamps of the decoded events with non-empty content or reasoning. */
  token_ns: BigInt64Array;
  first_content_ns: bigint | null;
  /** The first event with a non-empty choices array. */
  first_choice_ns: bigint | null;
  /** Some decoded event had content or reasoning (its usage, if any, is the slice marked first_token). */
  first_token_seen: boolean;
  /** Usage values in event order: the last, the first token-bearing event's, and those that may warn. */
  usage: DecodedSlice[] | null;
  /** Every decoded event's spec-decode value, in order. */
  spec_decode: DecodedSlice[] | null;
}
