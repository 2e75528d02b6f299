// Known servers' metric names, mapped to common concepts. Sources (names as documented):
//   vLLM      docs.vllm.ai "Production Metrics" / vllm/v1/metrics/loggers.py (V1; V0 names kept as fallbacks)
//   SGLang    docs.sglang.io "Production Metrics" (--enable-metrics)
//   TensorRT-LLM  tensorrt_llm/metrics/collector.py (trtllm-serve /prometheus/metrics; `trtllm_`, or
//             `trtllm:` as older Dynamo releases re-prefix it)
//   llama.cpp tools/server README, `--metrics` (llamacpp:*)
//   TGI       text-generation-inference docs "Metrics" (tgi_*)
//   Dynamo    docs.nvidia.com/dynamo "Metrics Catalog" (dynamo_frontend_*, dynamo_component_kvstats_*)
// Gauges and counters are matched by sample name (so `_total` is part of a counter's name, as both
// the text format and OpenMetrics write it); histograms by family name.

export type Vendor = 'vllm' | 'sglang' | 'trtllm' | 'llamacpp' | 'tgi' | 'dynamo';

export type ConceptKind = 'gauge' | 'counter' | 'histogram' | 'ratio';

export interface ConceptSource {
  vendor: Vendor;
  /** Sample name (gauge, counter) or histogram family name. */
  metric: string;
  /** For 'ratio': the denominator counter (the numerator is `metric`). */
  denominator?: string;
  /** A gauge read as a percentage: multiply by this (fractions 0..1 → 100). */
  scale?: number;
  /** Read a gauge where the concept is a ratio of counters (older versions' rate gauge). */
  as?: 'gauge';
}

export interface Concept {
  id: string;
  header: string;
  kind: ConceptKind;
  /** Unit of the summarized values: histogram values are seconds on every server. */
  unit: 'requests' | 'percent' | 'tokens' | 'seconds';
  /** How several series (labels, ranks) of one endpoint combine at one scrape. */
  agg: 'sum' | 'mean';
  sources: readonly ConceptSource[];
}

const trt = (metric: string, extra: Partial<ConceptSource> = {}): ConceptSource[] => [
  { vendor: 'trtllm', metric: `trtllm_${metric}`, ...extra },
  { vendor: 'trtllm', metric: `trtllm:${metric}`, ...extra },
];

export const CONCEPTS: readonly Concept[] = [
  {
    id: 'requests_running',
    header: 'Requests Running',
    kind: 'gauge',
    unit: 'requests',
    agg: 'sum',
    sources: [
      { vendor: 'vllm', metric: 'vllm:num_requests_running' },
      { vendor: 'sglang', metric: 'sglang:num_running_reqs' },
      { vendor: 'llamacpp', metric: 'llamacpp:requests_processing' },
      { vendor: 'tgi', metric: 'tgi_batch_current_size' },
      { vendor: 'dynamo', metric: 'dynamo_frontend_inflight_requests' },
    ],
  },
  {
    id: 'requests_waiting',
    header: 'Requests Waiting',
    kind: 'gauge',
    unit: 'requests',
    agg: 'sum',
    sources: [
      { vendor: 'vllm', metric: 'vllm:num_requests_waiting' },
      { vendor: 'sglang', metric: 'sglang:num_queue_reqs' },
      { vendor: 'llamacpp', metric: 'llamacpp:requests_deferred' },
      { vendor: 'tgi', metric: 'tgi_queue_size' },
      { vendor: 'dynamo', metric: 'dynamo_frontend_queued_requests' },
    ],
  },
  {
    id: 'kv_cache_usage',
    header: 'KV-Cache Usage',
    kind: 'gauge',
    unit: 'percent',
    agg: 'mean',
    sources: [
      { vendor: 'vllm', metric: 'vllm:kv_cache_usage_perc', scale: 100 },
      { vendor: 'vllm', metric: 'vllm:gpu_cache_usage_perc', scale: 100 },
      { vendor: 'sglang', metric: 'sglang:token_usage', scale: 100 },
      { vendor: 'llamacpp', metric: 'llamacpp:kv_cache_usage_ratio', scale: 100 },
      ...trt('kv_cache_utilization', { scale: 100 }),
      { vendor: 'dynamo', metric: 'dynamo_component_kvstats_gpu_cache_usage_percent', scale: 100 },
    ],
  },
  {
    id: 'prefix_cache_hit_rate',
    header: 'Prefix-Cache Hit Rate',
    kind: 'ratio',
    unit: 'percent',
    agg: 'mean',
    sources: [
      { vendor: 'vllm', metric: 'vllm:prefix_cache_hits_total', denominator: 'vllm:prefix_cache_queries_total' },
      { vendor: 'vllm', metric: 'vllm:gpu_prefix_cache_hit_rate', scale: 100, as: 'gauge' },
      { vendor: 'sglang', metric: 'sglang:cache_hit_rate', scale: 100, as: 'gauge' },
      ...trt('kv_cache_hit_rate', { scale: 100, as: 'gauge' }),
      { vendor: 'dynamo', metric: 'dynamo_component_kvstats_gpu_prefix_cache_hit_rate', scale: 100, as: 'gauge' },
    ],
  },
  {
    id: 'preemptions',
    header: 'Preemptions',
    kind: 'counter',
    unit: 'requests',
    agg: 'sum',
    sources: [{ vendor: 'vllm', metric: 'vllm:num_preemptions_total' }],
  },
  {
    id: 'prompt_tokens',
    header: 'Prompt Tokens',
    kind: 'counter',
    unit: 'tokens',
    agg: 'sum',
    sources: [
      { vendor: 'vllm', metric: 'vllm:prompt_tokens_total' },
      { vendor: 'sglang', metric: 'sglang:prompt_tokens_total' },
      { vendor: 'llamacpp', metric: 'llamacpp:prompt_tokens_total' },
      { vendor: 'tgi', metric: 'tgi_request_input_length_sum' },
      { vendor: 'dynamo', metric: 'dynamo_frontend_input_sequence_tokens_sum' },
    ],
  },
  {
    id: 'generation_tokens',
    header: 'Generation Tokens',
    kind: 'counter',
    unit: 'tokens',
    agg: 'sum',
    sources: [
      { vendor: 'vllm', metric: 'vllm:generation_tokens_total' },
      { vendor: 'sglang', metric: 'sglang:generation_tokens_total' },
      { vendor: 'llamacpp', metric: 'llamacpp:tokens_predicted_total' },
      { vendor: 'tgi', metric: 'tgi_request_generated_tokens_sum' },
      { vendor: 'dynamo', metric: 'dynamo_frontend_output_sequence_tokens_sum' },
    ],
  },
  {
    id: 'requests_finished',
    header: 'Requests Finished',
    kind: 'counter',
    unit: 'requests',
    agg: 'sum',
    sources: [
      { vendor: 'vllm', metric: 'vllm:request_success_total' },
      { vendor: 'sglang', metric: 'sglang:num_requests_total' },
      ...trt('request_success_total'),
      { vendor: 'tgi', metric: 'tgi_request_success' },
      { vendor: 'dynamo', metric: 'dynamo_frontend_requests_total' },
    ],
  },
  {
    id: 'ttft',
    header: 'Server TTFT',
    kind: 'histogram',
    unit: 'seconds',
    agg: 'sum',
    sources: [
      { vendor: 'vllm', metric: 'vllm:time_to_first_token_seconds' },
      { vendor: 'sglang', metric: 'sglang:time_to_first_token_seconds' },
      ...trt('time_to_first_token_seconds'),
      { vendor: 'dynamo', metric: 'dynamo_frontend_time_to_first_token_seconds' },
    ],
  },
  {
    id: 'itl',
    header: 'Server ITL (TPOT)',
    kind: 'histogram',
    unit: 'seconds',
    agg: 'sum',
    sources: [
      { vendor: 'vllm', metric: 'vllm:inter_token_latency_seconds' },
      { vendor: 'vllm', metric: 'vllm:time_per_output_token_seconds' },
      { vendor: 'sglang', metric: 'sglang:inter_token_latency_seconds' },
      { vendor: 'sglang', metric: 'sglang:time_per_output_token_seconds' },
      ...trt('time_per_output_token_seconds'),
      { vendor: 'tgi', metric: 'tgi_request_mean_time_per_token_duration' },
      { vendor: 'dynamo', metric: 'dynamo_frontend_inter_token_latency_seconds' },
    ],
  },
  {
    id: 'e2e_latency',
    header: 'Server E2E Latency',
    kind: 'histogram',
    unit: 'seconds',
    agg: 'sum',
    sources: [
      { vendor: 'vllm', metric: 'vllm:e2e_request_latency_seconds' },
      { vendor: 'sglang', metric: 'sglang:e2e_request_latency_seconds' },
      ...trt('e2e_request_latency_seconds'),
      { vendor: 'tgi', metric: 'tgi_request_duration' },
      { vendor: 'dynamo', metric: 'dynamo_frontend_request_duration_seconds' },
    ],
  },
  {
    id: 'queue_time',
    header: 'Server Queue Time',
    kind: 'histogram',
    unit: 'seconds',
    agg: 'sum',
    sources: [
      { vendor: 'vllm', metric: 'vllm:request_queue_time_seconds' },
      ...trt('request_queue_time_seconds'),
      { vendor: 'tgi', metric: 'tgi_request_queue_duration' },
    ],
  },
];

/** Which vendor a set of names comes from: the one with the most matches (null: none). */
export function detectVendor(names: Iterable<string>): Vendor | null {
  const counts = new Map<Vendor, number>();
  const byName = new Map<string, Vendor>();
  for (const c of CONCEPTS) for (const s of c.sources) byName.set(s.metric, s.vendor);
  for (const n of names) {
    const v = byName.get(n);
    if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  let best: Vendor | null = null;
  for (const [v, n] of counts) if (best === null || n > counts.get(best)!) best = v;
  return best;
}
