// The payloads of one response folded into what the record keeps: the texts, the token stamps,
// the usage, the spec-decode stats and the finish reason. Fed payload by payload by the endpoint
// adapter's parse(), or in one step from the native decoder's reading of the events
// (RawRecord.decoded), whose usage and spec-decode values are interpreted here by the same TS
// code, once per record.
import { decodeJson } from '../endpoints/common.js';
import { specDecodeOfPayload, SpecDecodeAccumulator } from '../endpoints/spec-decode.js';
import type { DecodeSpec } from '../model/decoded.js';
import type { Payload } from '../endpoints/types.js';
import { mergeUsage, usageOfPayload } from '../endpoints/usage.js';
import type { DecodedStream } from '../model/decoded.js';
import type { ParsedResponse } from '../model/processed-record.js';
import type { RecordError } from '../model/raw-record.js';
import type { ResponseMedia } from '../model/media.js';
import type { SpecDecodeRecord } from '../model/spec-decode.js';
import type { Usage } from '../model/usage.js';

export interface Folded {
  responses: ParsedResponse[];
  content: string;
  reasoning: string;
  /** Stamps of payloads with non-empty content or reasoning. */
  token_ns: bigint[] | BigInt64Array;
  first_output_ns: bigint | null;
  /** EvalScope's first chunk: any payload with non-empty choices, a role-only one included. */
  first_choice_ns: bigint | null;
  usage: Usage | null;
  error: RecordError | null;
  /** completion_tokens of the usage on the first chunk with content or reasoning, when it had one. */
  first_chunk_tokens?: number | null;
  spec_decode?: SpecDecodeRecord | null;
  /** What the response said about media (generation endpoints); null: nothing. */
  media?: ResponseMedia | null;
  /** Why the response ended, as the last payload that said so put it; null: none did. */
  finish_reason: string | null;
}

/** Finish reasons seen, so kept records share one string per value (a run has a handful). */
const finishNames = new Map<string, string>();

function sharedName(s: string): string {
  const seen = finishNames.get(s);
  if (seen !== undefined) return seen;
  // A server that varies it per response gets no sharing beyond the first few.
  if (finishNames.size < 64) finishNames.set(s, s);
  return s;
}

/** `{"a":{"b":[text]}}` for path `a.b[*]`: a payload holding just that value where the path finds it. */
export function wrapAtPath(path: string, text: string): string {
  let out = text;
  const steps = path.split('.');
  for (let i = steps.length - 1; i >= 0; i--) {
    let step = steps[i];
    let arrays = 0;
    while (step.endsWith('[*]')) {
      step = step.slice(0, -3);
      arrays++;
    }
    for (let k = 0; k < arrays; k++) out = `[${out}]`;
    // `(a|b)`: the first alternative holds it.
    const key = step.startsWith('(') ? step.slice(1, step.indexOf('|') > 0 ? step.indexOf('|') : -1) : step;
    out = `{${JSON.stringify(key)}:${out}}`;
  }
  return out;
}

export class PayloadFold {
  private readonly responses: ParsedResponse[] = [];
  private content = '';
  private reasoning = '';
  private token_ns: bigint[] | BigInt64Array = [];
  private first_output_ns: bigint | null = null;
  private first_choice_ns: bigint | null = null;
  private usage: Usage | null = null;
  private firstChunkTokens: number | null | undefined;
  private readonly spec = new SpecDecodeAccumulator();
  private media: ResponseMedia | null = null;
  private finish: string | null = null;

  /** One payload the adapter decoded as data. */
  add(p: Extract<Payload, { kind: 'data' }>, ns: bigint): void {
    if (p.usage) this.usage = p.usage_partial ? mergeUsage(this.usage, p.usage) : p.usage;
    if (p.spec_decode) this.spec.add(p.spec_decode);
    if (p.media) this.media = { ...this.media, ...p.media };
    if (p.finish_reason) this.finish = p.finish_reason;
    const token = p.content !== '' || p.reasoning !== '';
    if (this.firstChunkTokens === undefined && token) this.firstChunkTokens = p.usage?.completion_tokens ?? null;
    if (this.first_choice_ns === null && p.has_choices) this.first_choice_ns = ns;
    // A role-only chunk (empty content and reasoning) is not a token.
    if (token) {
      if (!Array.isArray(this.token_ns)) this.token_ns = Array.from(this.token_ns);
      this.token_ns.push(ns);
      if (this.first_output_ns === null && p.content !== '') this.first_output_ns = ns;
      this.content += p.content;
      this.reasoning += p.reasoning;
    }
    this.responses.push({ ns, content: p.content, reasoning: p.reasoning, has_choices: p.has_choices });
  }

  /** The native decoder's reading of a response's events (before any tail); first, on an empty fold. */
  addDecoded(d: DecodedStream, spec: DecodeSpec, usageOfSlice?: (source: number, text: string) => Usage | null): void {
    this.content = d.content;
    this.reasoning = d.reasoning;
    this.token_ns = d.token_ns;
    this.first_output_ns = d.first_content_ns;
    this.first_choice_ns = d.first_choice_ns;
    this.finish = d.finish_reason;
    for (const s of d.usage ?? []) {
      // Every slice is read, the warning-only ones too, so usage.ts warns as it would per payload.
      const u = usageOfSlice ? usageOfSlice(s.source, s.text) : usageOfPayload(decodeJson(wrapAtPath(spec.usage[s.source].path, s.text)));
      if (s.last) this.usage = u;
      if (s.first_token) this.firstChunkTokens = u?.completion_tokens ?? null;
    }
    if (d.first_token_seen && this.firstChunkTokens === undefined) this.firstChunkTokens = null;
    for (const s of d.spec_decode ?? []) {
      const c = specDecodeOfPayload(decodeJson(wrapAtPath(spec.spec_decode[s.source].path, s.text)));
      if (c) this.spec.add(c);
    }
  }

  /** The fold so far; a record that ended in an error has no first-chunk count or spec-decode stats. */
  result(error: RecordError | null): Folded {
    const out: Folded = {
      responses: this.responses,
      content: this.content,
      reasoning: this.reasoning,
      token_ns: this.token_ns,
      first_output_ns: this.first_output_ns,
      first_choice_ns: this.first_choice_ns,
      usage: this.usage,
      error,
      finish_reason: this.finish === null ? null : sharedName(this.finish),
    };
    if (error === null) {
      out.first_chunk_tokens = this.firstChunkTokens ?? null;
      out.spec_decode = this.spec.result();
      out.media = this.media;
    }
    return out;
  }
}
