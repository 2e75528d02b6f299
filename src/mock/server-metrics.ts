// The mock's own Prometheus metrics, shaped like an inference server's, reflecting what it did:
// requests running (from the end of the request body until the response closes) and waiting
// (always 0: the mock never queues), prompt and generation token counters (generation counted as
// each chunk is written), and TTFT / ITL / e2e / queue-time histograms observed as it happens.
// `metricsFormat` picks the names of vLLM, SGLang, TensorRT-LLM or llama.cpp (which has no histograms).
import { performance } from 'node:perf_hooks';

export const METRICS_FORMATS = ['vllm', 'sglang', 'trtllm', 'llamacpp'] as const;
export type MetricsFormat = (typeof METRICS_FORMATS)[number];

/** vLLM's bucket bounds (seconds) for TTFT, and for ITL / e2e. */
export const MOCK_TTFT_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80];
const ITL_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 1, 2.5];
const E2E_BUCKETS = [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960];

interface Names {
  running: string | null;
  waiting: string | null;
  prompt: string | null;
  generation: string | null;
  success: string | null;
  ttft: string | null;
  itl: string | null;
  e2e: string | null;
  queue: string | null;
}

// The names each server documents (see src/server-metrics/vendors.ts for the sources).
const NAMES: Record<MetricsFormat, Names> = {
  vllm: {
    running: 'vllm:num_requests_running',
    waiting: 'vllm:num_requests_waiting',
    prompt: 'vllm:prompt_tokens',
    generation: 'vllm:generation_tokens',
    success: 'vllm:request_success',
    ttft: 'vllm:time_to_first_token_seconds',
    itl: 'vllm:inter_token_latency_seconds',
    e2e: 'vllm:e2e_request_latency_seconds',
    queue: 'vllm:request_queue_time_seconds',
  },
  sglang: {
    running: 'sglang:num_running_reqs',
    waiting: 'sglang:num_queue_reqs',
    prompt: 'sglang:prompt_tokens',
    generation: 'sglang:generation_tokens',
    success: 'sglang:num_requests',
    ttft: 'sglang:time_to_first_token_seconds',
    itl: 'sglang:inter_token_latency_seconds',
    e2e: 'sglang:e2e_request_latency_seconds',
    queue: null,
  },
  trtllm: {
    running: null,
    waiting: null,
    // TensorRT-LLM documents no token counters or running/waiting gauges (MetricsCollector, 1.1).
    prompt: null,
    generation: null,
    success: 'trtllm_request_success',
    ttft: 'trtllm_time_to_first_token_seconds',
    itl: 'trtllm_time_per_output_token_seconds',
    e2e: 'trtllm_e2e_request_latency_seconds',
    queue: 'trtllm_request_queue_time_seconds',
  },
  llamacpp: {
    running: 'llamacpp:requests_processing',
    waiting: 'llamacpp:requests_deferred',
    prompt: 'llamacpp:prompt_tokens',
    generation: 'llamacpp:tokens_predicted',
    success: null,
    ttft: null,
    itl: null,
    e2e: null,
    queue: null,
  },
};

class Hist {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(readonly bounds: readonly number[]) {
    this.counts = new Array<number>(bounds.length).fill(0);
  }
  observe(v: number): void {
    this.sum += v;
    this.count++;
    for (let i = 0; i < this.bounds.length; i++) if (v <= this.bounds[i]) this.counts[i]++;
  }
}

/** One generation request as the mock's metrics see it. */
export interface MockRequestMetrics {
  /** Tokens written to the client; the first call is the first token. */
  tokens(n: number): void;
  /** The response closed (ended, reset, or the client went away). Idempotent. */
  end(): void;
}

export class MockServerMetrics {
  private running = 0;
  private promptTokens = 0;
  private generationTokens = 0;
  private success = 0;
  private readonly ttft = new Hist(MOCK_TTFT_BUCKETS);
  private readonly itl = new Hist(ITL_BUCKETS);
  private readonly e2e = new Hist(E2E_BUCKETS);
  private readonly queue = new Hist(MOCK_TTFT_BUCKETS);
  private readonly names: Names;

  constructor(readonly format: MetricsFormat) {
    this.names = NAMES[format];
  }

  /** The path this format is served on besides /metrics' DCGM lines (TensorRT-LLM: /prometheus/metrics). */
  get path(): string {
    return this.format === 'trtllm' ? '/prometheus/metrics' : '/metrics';
  }

  /** A request whose body was complete at `t0` (performance.now() ms) starts generating. */
  begin(promptTokens: number, t0: number): MockRequestMetrics {
    this.running++;
    this.promptTokens += promptTokens;
    this.queue.observe(0);
    let last = -1;
    let done = false;
    return {
      tokens: (n) => {
        if (done || n <= 0) return;
        const now = performance.now();
        if (last < 0) this.ttft.observe((now - t0) / 1000);
        else this.itl.observe((now - last) / 1000 / n);
        last = now;
        this.generationTokens += n;
      },
      end: () => {
        if (done) return;
        done = true;
        this.running--;
        this.success++;
        this.e2e.observe((performance.now() - t0) / 1000);
      },
    };
  }

  /** The exposition lines (Prometheus text 0.0.4). */
  lines(): string[] {
    const n = this.names;
    const out: string[] = [];
    const labels = 'model_name="mock-model"';
    const scalar = (name: string | null, type: 'gauge' | 'counter', help: string, v: number) => {
      if (name === null) return;
      const sample = type === 'counter' ? `${name}_total` : name;
      out.push(`# HELP ${sample} ${help}`, `# TYPE ${sample} ${type}`, `${sample}{${labels}} ${v}`);
    };
    const hist = (name: string | null, help: string, h: Hist) => {
      if (name === null) return;
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} histogram`);
      h.bounds.forEach((b, i) => out.push(`${name}_bucket{${labels},le="${b}"} ${h.counts[i]}`));
      out.push(`${name}_bucket{${labels},le="+Inf"} ${h.count}`, `${name}_sum{${labels}} ${h.sum}`, `${name}_count{${labels}} ${h.count}`);
    };
    scalar(n.running, 'gauge', 'Number of requests running.', this.running);
    scalar(n.waiting, 'gauge', 'Number of requests waiting.', 0);
    scalar(n.prompt, 'counter', 'Number of prefill tokens processed.', this.promptTokens);
    scalar(n.generation, 'counter', 'Number of generation tokens processed.', this.generationTokens);
    scalar(n.success, 'counter', 'Count of finished requests.', this.success);
    hist(n.ttft, 'Histogram of time to first token in seconds.', this.ttft);
    hist(n.itl, 'Histogram of inter-token latency in seconds.', this.itl);
    hist(n.e2e, 'Histogram of end to end request latency in seconds.', this.e2e);
    hist(n.queue, 'Histogram of time spent waiting in the queue in seconds.', this.queue);
    return out;
  }
}
