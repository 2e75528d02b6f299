// RawRecord → ProcessedRecord: decode payloads with the endpoint adapter, settle the final status,
// count tokens and compute the per-record metrics (the last two may run elsewhere: prepare/complete).
import { errorEventMessage } from '../endpoints/common.js';
import type { EndpointAdapter } from '../endpoints/types.js';
import { PayloadParseError } from '../errors.js';
import { computeRecordMetrics } from '../metrics/record-metrics.js';
import type { MetricRegistry } from '../metrics/core/registry.js';
import type { TextTokenizer } from '../tokenizer/types.js';
import { type Folded, PayloadFold } from './fold.js';
import { mediaInput } from './media.js';
import type { Credit } from '../model/credit.js';
import type { MetricRecord, ProcessedRecord } from '../model/processed-record.js';
import type { RawRecord } from '../model/raw-record.js';
import type { Turn } from '../model/turn.js';

export interface ProcessorOptions {
  adapter: EndpointAdapter;
  tokenizer: TextTokenizer;
  /** Prefer the server's usage counts over local tokenization. */
  useServerTokenCount: boolean;
  /** --per-chunk-usage: read the cumulative usage of the first token-bearing chunk (ITL divisor). */
  perChunkUsage?: boolean;
  /** The metric definitions (--convention; metrics/conventions.ts); default: AIPerf's. */
  registry?: MetricRegistry;
  /** --convention all: other conventions' registries, whose values go to ProcessedRecord.convention_metrics. */
  compareWith?: ReadonlyMap<string, MetricRegistry>;
}

/** The texts of one record still to be counted with the local tokenizer; null: not counted. */
export interface CountTexts {
  /** The prompt's messages (or the prompt), when the turn has no ISL. */
  input: string[] | null;
  output: string | null;
  reasoning: string | null;
}

export interface TokenCounts {
  input: number | null;
  output: number | null;
  reasoning: number | null;
}

export interface PreparedRecord {
  record: ProcessedRecord;
  texts: CountTexts;
}

export class RecordProcessor {
  /** Multi-turn: when each session's latest turn ended, for the next turn's predecessor delay. */
  private readonly lastTurnEnd = new Map<string, { turn: number; end_ns: bigint; pred: bigint | null }>();

  constructor(private readonly opts: ProcessorOptions) {}

  /** The whole record, counted on this thread: prepare, count, complete. */
  process(raw: RawRecord): ProcessedRecord {
    const { record, texts } = this.prepare(raw);
    completeRecord(
      record,
      countTexts(texts, (t) => this.opts.tokenizer.count(t)),
      this.opts.registry,
      this.opts.compareWith,
    );
    return record;
  }

  /**
   * The record without its local token counts and metrics: status, error, responses and the metric
   * input are final, and `texts` says what still has to be counted (run/pipeline/record-pipeline.ts does it off
   * this thread). completeRecord() finishes it.
   */
  prepare(raw: RawRecord): PreparedRecord {
    const decoded = raw.status === 'ok' ? this.decode(raw) : new PayloadFold().result(null);
    const error = raw.error ?? decoded.error;
    const status = raw.status !== 'ok' ? raw.status : error ? 'error' : 'ok';
    const { input, texts } = this.metricInput(raw, status === 'ok', decoded);
    input.predecessor_end_ns = this.predecessorEnd(raw);
    const record: ProcessedRecord = {
      // A record waits for its batch's worker (run/pipeline/record-pipeline.ts): not with the prompt it was sent with.
      raw: { ...raw, credit: keptCredit(raw.credit) },
      status,
      error,
      metric_input: input,
      responses: decoded.responses,
      usage: decoded.usage,
      finish_reason: decoded.finish_reason,
      metrics: new Map(),
      // Last: the record pipeline deletes it once the record is handed over, and V8 keeps an object
      // in fast mode only when the property deleted is the last one added (else every kept record
      // turns into a hash table, about 450 bytes more each).
      content: decoded.content,
    };
    return { record, texts };
  }

  /** The end of the same session's previous turn (turns of a session never overlap), then this turn's. */
  private predecessorEnd(raw: RawRecord): bigint | null {
    const { session_id: id, turn_index: k } = raw.credit.turn;
    if (id === undefined || k === undefined) return null;
    const prev = this.lastTurnEnd.get(id);
    // The same turn processed again (an error record after a processing failure) keeps its predecessor.
    if (prev !== undefined && prev.turn === k) return prev.pred;
    const pred = prev !== undefined && prev.turn === k - 1 ? prev.end_ns : null;
    this.lastTurnEnd.set(id, { turn: k, end_ns: raw.end_ns, pred });
    return pred;
  }

  private decode(raw: RawRecord): Folded {
    const fold = new PayloadFold();
    // Events the native decoder read come folded; the adapter decodes the rest (the tail), if any.
    const native = raw.streaming ? raw.decoded : undefined;
    if (native) fold.addDecoded(native, this.opts.adapter.decodeSpec, this.opts.adapter.usageOfSlice?.bind(this.opts.adapter));
    const from = native ? raw.event_data.length - native.tail : 0;
    const payloads: [string, bigint, string][] = raw.streaming
      ? raw.event_data.slice(from).map((d, i) => [d, raw.event_ns[from + i], raw.event_type[from + i] ?? ''])
      : raw.body !== null
        ? [[raw.body, raw.end_ns, '']]
        : [];
    for (const [data, ns, type] of payloads) {
      // An `event: error` event is the stream's error, whatever its data holds (the native decoder leaves it to us).
      if (type === 'error') return fold.result({ type: 'sse_error', message: errorEventMessage(data), http_status: raw.http_status });
      let p;
      try {
        p = this.opts.adapter.parse(data);
      } catch (err) {
        if (err instanceof PayloadParseError) {
          return fold.result({ type: 'parse_error', message: err.message, http_status: raw.http_status });
        }
        throw err;
      }
      if (p.kind === 'done') continue;
      if (p.kind === 'error') {
        return fold.result({ type: 'sse_error', message: p.message, http_status: raw.http_status });
      }
      fold.add(p, ns);
    }
    if (raw.streaming && (native ? native.events : payloads.length) === 0) {
      return fold.result({ type: 'parse_error', message: 'stream ended without any event', http_status: raw.http_status });
    }
    return fold.result(null);
  }

  private metricInput(raw: RawRecord, valid: boolean, d: Folded): { input: MetricRecord; texts: CountTexts } {
    const { token_ns, first_output_ns, first_choice_ns, content, reasoning } = d;
    const turn = raw.credit.turn;
    const generates = this.opts.adapter.generates !== false;
    let texts: CountTexts = {
      // A message list (multi-turn history, a system prompt) is counted whole, message by message.
      input: turn.isl != null ? null : turn.messages ? turn.messages.map((m) => m.content) : [turn.prompt, ...(turn.inputs ?? [])],
      // An API that generates no text (embeddings, rankings) has no output count, not 0.
      output: valid && generates ? content : null,
      // No reasoning text means no value (not 0), so non-reasoning models show no reasoning row.
      reasoning: valid && reasoning !== '' ? reasoning : null,
    };
    let input_tokens: number | null = turn.isl ?? null;
    let output_tokens: number | null = null;
    let reasoning_tokens: number | null = null;
    if (this.opts.useServerTokenCount) {
      const u = d.usage;
      texts = { input: null, output: null, reasoning: null };
      input_tokens = u?.prompt_tokens ?? null;
      reasoning_tokens = valid ? (u?.reasoning_tokens ?? null) : null;
      output_tokens =
        valid && generates && u?.completion_tokens != null ? Math.max(0, u.completion_tokens - (u.reasoning_tokens ?? 0)) : null;
    }
    // Inputs or outputs that are not text (audio uploads, generated images) have no token counts.
    if (this.opts.adapter.textInput === false) {
      texts.input = null;
      input_tokens = null;
    }
    if (this.opts.adapter.textOutput === false) {
      texts.output = null;
      output_tokens = null;
    }
    const input: MetricRecord = {
      valid,
      streaming: raw.streaming,
      credit_issued_ns: raw.credit.credit_issued_ns,
      targeted_start_ns: raw.credit.targeted_start_ns,
      trace_scheduled: raw.credit.trace_timestamp_ms !== undefined,
      generation_delay_ns: raw.credit.generation_delay_ns ?? null,
      start_ns: raw.start_ns,
      end_ns: raw.end_ns,
      token_ns,
      first_output_ns,
      last_content_ns: lastContentNs(raw, token_ns),
      first_choice_ns,
      input_tokens,
      output_tokens,
      reasoning_tokens,
      usage: d.usage,
      requested_osl: this.opts.adapter.sendsMaxTokens === false ? null : turn.max_tokens,
      // Only meaningful when OSL is the server's count too (--per-chunk-usage implies it).
      first_chunk_tokens: this.opts.perChunkUsage && this.opts.useServerTokenCount ? (d.first_chunk_tokens ?? null) : null,
      spec_decode: d.spec_decode ?? null,
      trace: raw.trace ?? null,
    };
    const media = mediaInput(turn.media, valid ? d.media : null);
    if (media) input.media = media;
    if (raw.sent_ns) input.sent_ns = raw.sent_ns;
    return { input, texts };
  }
}

/**
 * What a finished record keeps of its credit: the turn less its payloads (prompt, messages, inputs,
 * media), which are read only before the request is sent and while its texts are taken here; the
 * same shape records.jsonl reads back as (records/read.ts), plus what the summary reads.
 */
function keptCredit(credit: Credit): Credit {
  const t = credit.turn;
  const turn: Turn = { prompt: '', isl: t.isl, max_tokens: t.max_tokens };
  if (t.session_id !== undefined) turn.session_id = t.session_id;
  if (t.turn_index !== undefined) turn.turn_index = t.turn_index;
  // The theoretical prefix-cache hit rate keeps a reference to them (metrics/families/prefix-cache.ts).
  if (t.hash_ids !== undefined) turn.hash_ids = t.hash_ids;
  return { ...credit, turn };
}

/** The response request_latency ends at: the last token-bearing event (streaming), or the body (non-streaming). */
function lastContentNs(raw: RawRecord, token_ns: readonly bigint[] | BigInt64Array): bigint | null {
  if (!raw.streaming) return raw.end_ns;
  return token_ns.length > 0 ? token_ns[token_ns.length - 1] : null;
}

/** Local token counts of one record's texts; null where the text is not counted. */
export function countTexts(texts: CountTexts, count: (text: string) => number): TokenCounts {
  return {
    input: texts.input === null ? null : texts.input.reduce((n, t) => n + count(t), 0),
    output: texts.output === null ? null : count(texts.output),
    reasoning: texts.reasoning === null ? null : count(texts.reasoning),
  };
}

/** Fills a prepared record's local counts into its metric input, then computes its metrics. */
export function completeRecord(
  rec: ProcessedRecord,
  counts: TokenCounts,
  registry?: MetricRegistry,
  compareWith?: ReadonlyMap<string, MetricRegistry>,
): void {
  const input = rec.metric_input;
  if (counts.input !== null) input.input_tokens = counts.input;
  if (counts.output !== null) input.output_tokens = counts.output;
  if (counts.reasoning !== null) input.reasoning_tokens = counts.reasoning;
  rec.metrics = computeRecordMetrics(input, registry);
  if (compareWith) {
    rec.convention_metrics = new Map([...compareWith].map(([name, reg]) => [name, computeRecordMetrics(input, reg)]));
  }
}
