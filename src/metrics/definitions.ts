// One line per metric tag saying what it measures, for docs/metrics.md (scripts/gen-docs.mjs).
// Data only: the generator fails when a tag of the catalogue or of a convention has no line here,
// or a line names a tag that no longer exists, so a new metric cannot land undocumented.

export interface MetricDefinition {
  /** What the value is, in a sentence or two; the formula where there is one. */
  text: string;
  /** Flags or conditions it needs, beyond what its MetricFlag bits already say. */
  needs?: string;
}

const d = (text: string, needs?: string): MetricDefinition => (needs === undefined ? { text } : { text, needs });

const usage = (what: string): MetricDefinition => d(`the server's ${what}, as its response's usage reports it`);
const total = (of: string): MetricDefinition => d(`sum of \`${of}\` over the profiling requests`);
const trace = (text: string): MetricDefinition => d(`${text} (k6's name)`);

/** Per-vendor GPU energy metrics: the same definitions under the `nvidia_` and `amd_` prefixes. */
const ENERGY: Record<string, MetricDefinition> = {
  total_gpu_power: d("sum over GPUs of each GPU's mean sampled board power over the profiling window"),
  total_gpu_energy: d('energy-counter increase over the profiling window, summed over GPUs (integrated power for a GPU without a counter)'),
  average_gpu_power: d("total GPU energy / the window's length (the summed mean power for a GPU without an energy counter)"),
  output_tokens_per_joule: d('total output tokens / total GPU energy'),
  energy_per_output_token: d('total GPU energy / total output tokens'),
  energy_per_total_token: d('total GPU energy / (total input + output tokens)'),
  energy_per_request: d('total GPU energy / request count'),
  energy_per_user: d('total GPU energy / the concurrency', 'a closed-loop run (`--concurrency`)'),
  performance_per_watt: d('request throughput / average GPU power'),
  output_tps_per_watt: d('output token throughput / average GPU power'),
  goodput_per_watt: d('goodput / average GPU power'),
  energy_delay_product: d('energy per request × mean request latency'),
};

const energy = (prefix: string): Record<string, MetricDefinition> =>
  Object.fromEntries(Object.entries(ENERGY).map(([k, v]) => [`${prefix}_${k}`, v]));

export const METRIC_DEFINITIONS: Readonly<Record<string, MetricDefinition>> = {
  time_to_first_token: d('request start → the first response carrying content or reasoning'),
  time_to_second_token: d('request start → the second content response'),
  time_to_first_output_token: d('request start → the first response carrying content (reasoning not counted)'),
  request_latency: d('request start → the last content response (`last_content_ns`); the body, when not streaming'),
  effective_latency: d(
    "request latency + (start − credit issued): the latency plus the credit's wait before it was sent (coordinated-omission-aware)",
  ),
  decode_duration: d('request latency − TTFT: first to last content response'),
  inter_token_latency: d('(request latency − TTFT) / (OSL − 1)'),
  time_per_output_token: d("(last token − request start) / OSL: the first token included, where ITL leaves it out (GuideLLM's)"),
  inter_chunk_latency: d('the gap between consecutive content responses; many values per request'),
  output_token_throughput_per_user: d('1 / ITL'),
  prefill_throughput_per_user: d('ISL / TTFT'),
  e2e_output_token_throughput: d('OSL / request latency'),
  output_token_count: d('output tokens of the response as the client counts them (content and reasoning)'),
  reasoning_token_count: d('reasoning tokens of the response as the client counts them'),
  output_sequence_length: d("output tokens: the tokenizer's count (server usage with `--use-server-token-count`)"),
  input_sequence_length: d("prompt tokens: the tokenizer's count (server usage with `--use-server-token-count`)"),
  output_token_throughput: d('total output tokens / benchmark duration'),
  total_token_throughput: d('(total input + output tokens) / benchmark duration'),
  request_throughput: d('successful requests / benchmark duration'),
  request_count: d('successful profiling requests'),
  error_request_count: d('failed profiling requests'),
  request_error_rate: d('100 · errors / (successes + errors)'),
  benchmark_duration: d('max_response_timestamp − min_request_timestamp; every `*_throughput` and `goodput` divide by it'),
  total_output_tokens: total('output_token_count'),
  total_reasoning_tokens: total('reasoning_token_count'),
  total_osl: total('output_sequence_length'),
  total_isl: total('input_sequence_length'),
  min_request_timestamp: d('the earliest start of a profiling request that completed, ok or failed (CLOCK_MONOTONIC)'),
  max_response_timestamp: d('max(start + request latency) over the successful requests with a latency (CLOCK_MONOTONIC)'),
  good_request_count: d('successful requests meeting every `--goodput` objective'),
  good_request_fraction: d('good requests / (successes + errors)'),
  goodput: d('good requests / benchmark duration'),
  slo_attainment: d(
    "share of requests meeting every objective; errors count as missing them, cancelled requests and unevaluable successes are left out (GuideLLM's)",
  ),
  request_goodput: d("conforming requests per second of the benchmark duration (GuideLLM's; the same count and window as `goodput`)"),
  network_rtt: d(
    'the network round trip: the mean of the TCP-handshake probes, or the given mean; `network_adjusted_*` statistics subtract it',
    '`--network-latency-automatic` or `--network-latency-mean MS`',
  ),
  usage_prompt_tokens: usage('`prompt_tokens` (or `input_tokens`)'),
  usage_completion_tokens: usage('`completion_tokens` (or `output_tokens`)'),
  usage_total_tokens: usage('`total_tokens`'),
  usage_tool_use_prompt_tokens: usage("tool-use prompt tokens (Gemini's `toolUsePromptTokenCount`)"),
  usage_prompt_cache_read_tokens: usage(
    'prompt tokens read from its prefix cache (`cached_tokens`, `cache_read_input_tokens`, `prompt_cache_hit_tokens`)',
  ),
  usage_prompt_cache_write_tokens: usage('prompt tokens written to its cache (`cache_creation_input_tokens`)'),
  usage_prompt_cache_miss_tokens: usage('prompt tokens missing its cache (`prompt_cache_miss_tokens`)'),
  usage_accepted_prediction_tokens: usage('accepted predicted-output tokens'),
  usage_rejected_prediction_tokens: usage('rejected predicted-output tokens'),
  usage_prompt_audio_tokens: usage('prompt audio tokens'),
  usage_completion_audio_tokens: usage('completion audio tokens'),
  usage_prompt_audio_seconds: usage("prompt audio seconds (Mistral's `prompt_audio_seconds`)"),
  usage_reasoning_tokens: usage('reasoning tokens'),
  total_usage_prompt_tokens: total('usage_prompt_tokens'),
  total_usage_completion_tokens: total('usage_completion_tokens'),
  total_usage_total_tokens: total('usage_total_tokens'),
  total_usage_reasoning_tokens: total('usage_reasoning_tokens'),
  total_usage_prompt_cache_read_tokens: total('usage_prompt_cache_read_tokens'),
  overall_usage_prompt_cache_read_pct: d('100 · total cache-read prompt tokens / total usage prompt tokens'),
  total_usage_prompt_cache_write_tokens: total('usage_prompt_cache_write_tokens'),
  total_usage_prompt_cache_miss_tokens: total('usage_prompt_cache_miss_tokens'),
  total_usage_prompt_audio_tokens: total('usage_prompt_audio_tokens'),
  total_usage_completion_audio_tokens: total('usage_completion_audio_tokens'),
  total_usage_prompt_audio_seconds: total('usage_prompt_audio_seconds'),
  total_usage_tool_use_prompt_tokens: total('usage_tool_use_prompt_tokens'),
  total_usage_accepted_prediction_tokens: total('usage_accepted_prediction_tokens'),
  total_usage_rejected_prediction_tokens: total('usage_rejected_prediction_tokens'),
  theoretical_prefix_cache_hit_rate: d(
    'hit rate of an ideal infinite cache: 100 · hit blocks / total blocks, a block hitting when an earlier request of the same phase sent it',
    'a trace whose entries carry block hashes (mooncake `hash_ids`)',
  ),
  usage_prompt_tokens_diff_pct: d('100 · |server prompt tokens − client ISL| / client ISL'),
  usage_completion_tokens_diff_pct: d('100 · |server completion tokens − client OSL| / client OSL'),
  usage_reasoning_tokens_diff_pct: d('100 · |server reasoning tokens − client reasoning count| / client count'),
  usage_discrepancy_count: d("requests whose usage differs from the client's counts by more than `--usage-discrepancy-threshold` (10 %)"),
  osl_mismatch_diff_pct: d(
    '100 · (OSL − requested output tokens) / requested; signed: negative stopped early',
    "a requested output length (`--osl`, a dataset's `max_tokens`)",
  ),
  osl_mismatch_count: d(
    'requests with |actual − requested| above min(requested · `--osl-mismatch-pct-threshold` %, `--osl-mismatch-max-token-threshold`)',
    'a requested output length',
  ),
  spec_decode_acceptance_length: d(
    'tokens produced per verify step: 1 + accepted draft tokens / steps',
    'speculative-decoding details in the responses',
  ),
  spec_decode_draft_acceptance_rate: d('100 · accepted draft tokens / draft tokens', 'speculative-decoding details in the responses'),
  spec_decode_accepted_per_verified: d(
    'emitted over verified tokens: (accepted draft tokens + steps) / (draft tokens + steps)',
    'speculative-decoding details in the responses',
  ),
  spec_decode_steps: d('verify steps of the request', 'speculative-decoding details in the responses'),
  spec_decode_accepted_draft_tokens: d('accepted draft tokens of the request', 'speculative-decoding details in the responses'),
  spec_decode_draft_tokens: d('draft tokens proposed for the request', 'speculative-decoding details in the responses'),
  spec_decode_token_weighted_acceptance_length: d(
    '1 + total accepted draft tokens / total steps: every verify step weighs the same',
    'speculative-decoding details in the responses',
  ),
  spec_decode_overall_draft_acceptance_rate: d(
    '100 · total accepted draft tokens / total draft tokens',
    'speculative-decoding details in the responses',
  ),
  total_spec_decode_steps: total('spec_decode_steps'),
  total_accepted_draft_tokens: total('spec_decode_accepted_draft_tokens'),
  total_draft_tokens: total('spec_decode_draft_tokens'),
  error_isl: d('input sequence length of a failed request'),
  total_error_isl: total('error_isl'),
  http_req_blocked: trace('waiting for a connection from the pool'),
  http_req_dns_lookup: trace('resolving the host name'),
  http_req_connecting: trace('the TCP connect'),
  http_req_tls_handshaking: trace('TCP connected → TLS handshake done, on new connections (0 on reused ones)'),
  http_req_sending: trace('writing the request'),
  http_req_waiting: trace('request written → first response byte (TTFB)'),
  http_req_receiving: trace('first → last response byte'),
  http_req_duration: trace('sending + waiting + receiving: the request without connection setup'),
  http_req_connection_overhead: trace('blocked + DNS + connecting + TLS handshaking'),
  http_req_total: trace('request start → last byte (`end_ns`): the phases sum to it'),
  http_req_data_sent: trace('request bytes written'),
  http_req_data_received: trace('response bytes read'),
  http_req_connection_reused: trace('1 when the request went on a pooled connection (a preconnected one included), else 0'),
  http_req_chunks_sent: trace('writes that sent the request'),
  http_req_chunks_received: trace('reads that received the response'),
  num_images: d('image parts in the request; for image generation, the images returned'),
  image_throughput: d('num_images / request latency'),
  image_latency: d('request latency / num_images'),
  audio_duration: d('seconds of input audio in the request'),
  rtfx: d('audio_duration / request latency (inverse real-time factor)'),
  video_inference_time: d("the server's `inference_time_s`", '`--endpoint-type video_generation`'),
  video_peak_memory: d("the server's `peak_memory_mb`", '`--endpoint-type video_generation`'),
  request_dispatch_delay: d(
    'start − targeted start; no value in closed loop, where a target would be circular',
    'an arrival schedule (`--request-rate`, a replay)',
  ),
  generation_delay: d(
    "the scheduler asking the dataset for the next conversation → its first turn ready to schedule; one value per conversation (GuideLLM's)",
  ),
  replay_send_schedule_offset: d("a replayed request's send time − its trace time", 'a fixed-schedule replay'),
  request_scheduled_latency: d("end − targeted start: dispatch delay + request latency (GuideLLM's)", 'an arrival schedule'),
  turn_predecessor_delay: d(
    'the part of the dispatch delay spent waiting for the previous turn of the same session',
    'an arrival schedule',
  ),
  turn_scheduling_delay: d('dispatch delay − turn predecessor delay', 'an arrival schedule'),
  time_to_last_round_trip: d("the last sent event → the last received token (GuideLLM's)", '`--endpoint-type realtime`'),
  average_round_trip_time: d(
    "mean of the received-token stamps − mean of the sent-event stamps (GuideLLM's)",
    '`--endpoint-type realtime`',
  ),
  replay_sched_lag_p50: d(
    "p50 of each request's send offset from its trace time, anchored to the least late (AIPerf's replay schedule lag)",
    'a fixed-schedule replay',
  ),
  replay_sched_lag_p90: d('p90 of the replay schedule lag', 'a fixed-schedule replay'),
  replay_sched_lag_p99: d('p99 of the replay schedule lag', 'a fixed-schedule replay'),
  replay_sched_degraded: d('1 when the replay schedule lag p99 is over 500 ms (with a warning), else 0', 'a fixed-schedule replay'),
  context_overflow_count: d(
    'failed requests whose error body says the context length was exceeded (OpenAI, vLLM, SGLang, TGI, llama.cpp, Anthropic wordings)',
  ),
  ...energy('nvidia'),
  ...energy('amd'),
  effective_concurrency: d('time-weighted average of the requests in flight over the run window'),
  effective_decode_concurrency: d('time-weighted average of the requests in decode (first token → end)'),
  effective_prefill_concurrency: d('time-weighted average of the requests in prefill (start → first token)'),
  effective_decode_throughput: d('time-weighted average of the decode rates in flight, (OSL − 1) / (end − first token) each'),
  effective_prefill_throughput: d('time-weighted average of the prefill rates in flight, ISL / (first token − start) each'),
  effective_total_throughput: d('time-weighted average of the prefill and decode rates in flight'),
  effective_decode_throughput_per_user: d('decode throughput / decode concurrency, time-weighted (0 when none in decode)'),
  effective_prefill_throughput_per_user: d('prefill throughput / prefill concurrency, time-weighted (0 when none in prefill)'),
  tokens_in_flight: d('ISL during prefill, ISL + OSL during decode, summed over requests, time-weighted: a KV-cache proxy'),
  active_decode_throughput: d('decode throughput averaged over the time some request is in decode'),
  active_prefill_throughput: d('prefill throughput averaged over the time some request is in prefill'),
  active_total_throughput: d('total throughput averaged over the time some request is in flight'),
  active_decode_throughput_per_user: d('per-user decode throughput averaged over the time some request is in decode'),
  active_prefill_throughput_per_user: d('per-user prefill throughput averaged over the time some request is in prefill'),
  input_token_throughput: d("total prompt tokens / total first-chunk latency (EvalScope's)"),
};

/** How a convention's own declaration of a tag differs from AIPerf's (docs/metrics.md's conventions table). */
export const CONVENTION_DEFINITIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  guidellm: {
    request_latency: 'to the last byte (`request_end`)',
    time_to_first_token:
      'first chunk with content or reasoning; with a warmup or cooldown, counted when its span overlaps the measurement window',
    time_to_first_output_token: 'first chunk with content; windowed as TTFT',
    inter_token_latency: '(last token − first token) / (OSL − 1), weighted by tokens, windowed',
    time_per_output_token: '(last token − start) / OSL, weighted by tokens',
    output_token_throughput:
      'tokens / benchmark duration; with a warmup or cooldown, the tokens inside the measurement window over its length',
    total_token_throughput: 'as output token throughput, prompt tokens counted at the first token',
  },
  evalscope: {
    request_latency: 'to the last byte (`completed_time`)',
    time_to_first_token: 'first SSE event with non-empty `choices`, a role-only chunk included',
    inter_token_latency: "EvalScope's TPOT (it has no ITL of its own)",
    time_per_output_token: '(latency − TTFT) / (completion tokens − 1)',
    output_sequence_length: 'server usage when returned, else the tokenizer',
    input_sequence_length: 'server usage when returned, else the tokenizer',
    output_token_throughput: 'over successful requests only: tokens / (max(completed) − min(start))',
    total_token_throughput: 'over successful requests only: tokens / (max(completed) − min(start))',
    input_token_throughput: 'total prompt tokens / total first-chunk latency',
  },
};
