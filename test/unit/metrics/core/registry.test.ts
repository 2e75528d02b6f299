import { describe, expect, it } from 'vitest';
import { MetricRegistry } from '../../../../src/metrics/core/registry.js';
import { defaultMetricDefs, defaultRegistry } from '../../../../src/metrics/catalogue.js';
import { streamingMetrics } from '../../../../src/metrics/families/streaming.js';
import { tokenRecordMetrics, tokenRunMetrics } from '../../../../src/metrics/families/tokens.js';
import { reasoningRecordMetrics, reasoningRunMetrics } from '../../../../src/metrics/families/reasoning.js';
import { generalRecordMetrics, generalRunMetrics } from '../../../../src/metrics/families/general.js';
import { usageRecordMetrics, usageRunMetrics } from '../../../../src/metrics/families/usage.js';
import { usageDiscrepancyRecordMetrics, usageDiscrepancyRunMetrics } from '../../../../src/metrics/families/usage-discrepancy.js';
import { oslMismatchRecordMetrics, oslMismatchRunMetrics } from '../../../../src/metrics/families/osl-mismatch.js';
import { specDecodeRecordMetrics, specDecodeRunMetrics } from '../../../../src/metrics/families/spec-decode.js';
import { goodputRunMetrics } from '../../../../src/metrics/families/goodput.js';
import { errorRecordMetrics, errorRunMetrics } from '../../../../src/metrics/families/error-metrics.js';
import { networkRtt } from '../../../../src/metrics/families/network.js';
import { httpTraceRecordMetrics } from '../../../../src/metrics/families/http-trace.js';
import { effectiveLatency, effectiveTimeWeightedMetrics } from '../../../../src/metrics/families/effective.js';
import { schedulingRecordMetrics, schedulingRunMetrics } from '../../../../src/metrics/families/scheduling.js';
import { guidellmRecordMetrics, guidellmRunMetrics } from '../../../../src/metrics/families/guidellm.js';
import { amdEnergyMetrics, nvidiaEnergyMetrics } from '../../../../src/metrics/families/energy.js';
import { theoreticalPrefixCacheHitRate } from '../../../../src/metrics/families/prefix-cache.js';
import { mediaRecordMetrics } from '../../../../src/metrics/families/media.js';
import { realtimeRecordMetrics } from '../../../../src/metrics/families/realtime.js';
import type { MetricDef, RecordMetricDef, RunMetricDef } from '../../../../src/metrics/core/types.js';

function rec(tag: string, requires: string[] = []): RecordMetricDef {
  return { kind: 'record', tag, header: tag, unit: 'ns', display: 'ms', flags: 0, group: 'default', requires, compute: () => 1 };
}
function run(tag: string, requires: string[] = []): RunMetricDef {
  return { kind: 'derived', tag, header: tag, unit: 'ns', display: 'ms', flags: 0, group: 'default', requires, compute: () => 1 };
}

describe('MetricRegistry validation', () => {
  it('rejects a duplicate tag', () => {
    expect(() => new MetricRegistry([rec('a'), rec('a')])).toThrow(/duplicate tag 'a'/);
  });
  it('rejects an unknown requirement', () => {
    expect(() => new MetricRegistry([rec('a', ['nope'])])).toThrow(/unknown tag 'nope'/);
  });
  it('rejects a record metric that requires a run metric', () => {
    expect(() => new MetricRegistry([run('r'), rec('a', ['r'])])).toThrow(/cannot require run metric/);
  });
  it('allows a run metric to require a record metric (it reads the distribution)', () => {
    expect(() => new MetricRegistry([rec('a'), run('total', ['a'])])).not.toThrow();
  });
  it('rejects a cycle, naming its members', () => {
    expect(() => new MetricRegistry([rec('x'), rec('a', ['b']), rec('b', ['c']), rec('c', ['a'])])).toThrow(/cycle among a, b, c/);
    expect(() => new MetricRegistry([rec('self', ['self'])])).toThrow(/cycle/);
  });
});

describe('MetricRegistry ordering', () => {
  const defs: MetricDef[] = [rec('c', ['b']), rec('b', ['a']), rec('a'), rec('z'), run('t', ['c']), run('u', ['t', 'a'])];
  const reg = new MetricRegistry(defs);

  it('puts requirements first, ties in declaration order', () => {
    expect(reg.recordMetrics().map((d) => d.tag)).toEqual(['a', 'b', 'c', 'z']);
    expect(reg.runMetrics().map((d) => d.tag)).toEqual(['t', 'u']);
    // Once a is done, b (declared before z) is ready and goes first.
    expect(reg.allTags()).toEqual(['a', 'b', 'c', 'z', 't', 'u']);
  });
  it('keeps declaration order for display', () => {
    expect(reg.declarationOrder().map((d) => d.tag)).toEqual(['c', 'b', 'a', 'z', 't', 'u']);
  });
  it('tolerates a requirement listed twice', () => {
    const r = new MetricRegistry([rec('a'), rec('b', ['a', 'a'])]);
    expect(r.allTags()).toEqual(['a', 'b']);
  });
  it('looks metrics up by tag', () => {
    expect(reg.getMetric('b')?.tag).toBe('b');
    expect(reg.getMetric('nope')).toBeUndefined();
  });
});

describe('default catalogue', () => {
  const reg = defaultRegistry();

  it('holds every family declaration exactly once', () => {
    const families = [
      ...streamingMetrics,
      ...tokenRecordMetrics,
      ...tokenRunMetrics,
      ...reasoningRecordMetrics,
      ...reasoningRunMetrics,
      ...generalRecordMetrics,
      ...generalRunMetrics,
      ...usageRecordMetrics,
      ...usageRunMetrics,
      ...usageDiscrepancyRecordMetrics,
      ...usageDiscrepancyRunMetrics,
      ...oslMismatchRecordMetrics,
      ...oslMismatchRunMetrics,
      ...specDecodeRecordMetrics,
      ...specDecodeRunMetrics,
      ...goodputRunMetrics,
      ...errorRecordMetrics,
      ...errorRunMetrics,
      networkRtt,
      ...httpTraceRecordMetrics,
      effectiveLatency,
      ...effectiveTimeWeightedMetrics,
      ...schedulingRecordMetrics,
      ...schedulingRunMetrics,
      ...guidellmRecordMetrics,
      ...guidellmRunMetrics,
      ...nvidiaEnergyMetrics,
      ...amdEnergyMetrics,
      theoreticalPrefixCacheHitRate,
      ...mediaRecordMetrics,
      ...realtimeRecordMetrics,
    ];
    expect(new Set(defaultMetricDefs)).toEqual(new Set(families));
    expect(defaultMetricDefs.length).toBe(families.length);
  });

  it('uses the reference tags', () => {
    expect(new Set(reg.allTags())).toEqual(
      new Set([
        'time_to_first_token',
        'time_to_second_token',
        'time_to_first_output_token',
        'decode_duration',
        'inter_token_latency',
        'inter_chunk_latency',
        'output_token_throughput_per_user',
        'prefill_throughput_per_user',
        'output_token_count',
        'reasoning_token_count',
        'output_sequence_length',
        'input_sequence_length',
        'e2e_output_token_throughput',
        'request_latency',
        'theoretical_prefix_cache_hit_rate',
        'time_to_last_round_trip',
        'average_round_trip_time',
        'request_count',
        'error_request_count',
        'request_error_rate',
        'total_output_tokens',
        'total_reasoning_tokens',
        'total_osl',
        'total_isl',
        'output_token_throughput',
        'total_token_throughput',
        'request_throughput',
        'min_request_timestamp',
        'max_response_timestamp',
        'benchmark_duration',
        // Image, audio and video (issue 16).
        'num_images',
        'image_throughput',
        'image_latency',
        'audio_duration',
        'rtfx',
        'video_inference_time',
        'video_peak_memory',
        // Effective / Active (time-weighted over the run window) and effective latency.
        'effective_latency',
        'effective_concurrency',
        'effective_decode_concurrency',
        'effective_prefill_concurrency',
        'effective_decode_throughput',
        'effective_prefill_throughput',
        'effective_total_throughput',
        'effective_decode_throughput_per_user',
        'effective_prefill_throughput_per_user',
        'tokens_in_flight',
        'active_decode_throughput',
        'active_prefill_throughput',
        'active_total_throughput',
        'active_decode_throughput_per_user',
        'active_prefill_throughput_per_user',
        // Usage fields, discrepancy, OSL mismatch, spec decode, goodput, errors, network, HTTP trace.
        ...[
          'prompt_tokens',
          'completion_tokens',
          'total_tokens',
          'reasoning_tokens',
          'prompt_cache_read_tokens',
          'prompt_cache_write_tokens',
          'prompt_cache_miss_tokens',
          'prompt_audio_tokens',
          'completion_audio_tokens',
          'prompt_audio_seconds',
          'tool_use_prompt_tokens',
          'accepted_prediction_tokens',
          'rejected_prediction_tokens',
        ].flatMap((f) => [`usage_${f}`, `total_usage_${f}`]),
        'overall_usage_prompt_cache_read_pct',
        'usage_prompt_tokens_diff_pct',
        'usage_completion_tokens_diff_pct',
        'usage_reasoning_tokens_diff_pct',
        'usage_discrepancy_count',
        'osl_mismatch_diff_pct',
        'osl_mismatch_count',
        'spec_decode_acceptance_length',
        'spec_decode_token_weighted_acceptance_length',
        'spec_decode_draft_acceptance_rate',
        'spec_decode_overall_draft_acceptance_rate',
        'spec_decode_accepted_per_verified',
        'spec_decode_steps',
        'spec_decode_accepted_draft_tokens',
        'spec_decode_draft_tokens',
        'total_spec_decode_steps',
        'total_accepted_draft_tokens',
        'total_draft_tokens',
        'good_request_count',
        'good_request_fraction',
        'goodput',
        'error_isl',
        'total_error_isl',
        'network_rtt',
        'http_req_blocked',
        'http_req_dns_lookup',
        'http_req_connecting',
        'http_req_tls_handshaking',
        'http_req_sending',
        'http_req_waiting',
        'http_req_receiving',
        'http_req_duration',
        'http_req_connection_overhead',
        'http_req_total',
        'http_req_data_sent',
        'http_req_data_received',
        'http_req_connection_reused',
        'http_req_chunks_sent',
        'http_req_chunks_received',
        // Scheduling: dispatch delay, replay schedule lag (fixed schedule), context overflow.
        'request_dispatch_delay',
        'generation_delay',
        'replay_send_schedule_offset',
        'replay_sched_lag_p50',
        'replay_sched_lag_p90',
        'replay_sched_lag_p99',
        'replay_sched_degraded',
        'context_overflow_count',
        // GuideLLM: time per output token, scheduled latency, the dispatch delay's two parts, SLO attainment.
        'time_per_output_token',
        'request_scheduled_latency',
        'turn_predecessor_delay',
        'turn_scheduling_delay',
        'slo_attainment',
        'request_goodput',
        // GPU power efficiency, one set per vendor (issue 6).
        'nvidia_total_gpu_power',
        'nvidia_total_gpu_energy',
        'nvidia_average_gpu_power',
        'nvidia_output_tokens_per_joule',
        'nvidia_energy_per_output_token',
        'nvidia_energy_per_total_token',
        'nvidia_energy_per_request',
        'nvidia_energy_per_user',
        'nvidia_performance_per_watt',
        'nvidia_output_tps_per_watt',
        'nvidia_goodput_per_watt',
        'nvidia_energy_delay_product',
        'amd_total_gpu_power',
        'amd_total_gpu_energy',
        'amd_average_gpu_power',
        'amd_output_tokens_per_joule',
        'amd_energy_per_output_token',
        'amd_energy_per_total_token',
        'amd_energy_per_request',
        'amd_energy_per_user',
        'amd_performance_per_watt',
        'amd_output_tps_per_watt',
        'amd_goodput_per_watt',
        'amd_energy_delay_product',
      ]),
    );
  });

  it('evaluates every requirement before its dependents', () => {
    const order = reg.allTags();
    for (const def of defaultMetricDefs) {
      for (const req of def.requires) expect(order.indexOf(req), `${def.tag} ← ${req}`).toBeLessThan(order.indexOf(def.tag));
    }
  });
});
