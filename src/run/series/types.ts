// A series' points and summary rows (sweep.ts, sweep-summary.ts, sweep-table.ts, search.ts).
export type PointStrategy = 'synchronous' | 'throughput' | 'concurrency' | 'rate';

export interface SweepPoint {
  /** 0-based position in the sweep. */
  index: number;
  strategy: PointStrategy;
  /** Closed-loop concurrency, or the cap of a rate point (null: none). */
  concurrency: number | null;
  /** Open-loop target rate (requests/s), null for closed-loop points. */
  rate: number | null;
}

export interface SweepRow {
  point: number;
  strategy: PointStrategy;
  /** Closed-loop concurrency, or a rate point's cap. */
  concurrency: number | null;
  /** Target rate of an open-loop point (requests/s). */
  target_request_rate: number | null;
  /** Successful requests per second over the profiling window (request_throughput). */
  achieved_request_rate: number | null;
  ttft_p50_ms: number | null;
  ttft_p99_ms: number | null;
  itl_p50_ms: number | null;
  itl_p99_ms: number | null;
  output_token_throughput: number | null;
  /** Good requests per second (null without goodput SLOs). */
  goodput: number | null;
  good_request_fraction: number | null;
  issued: number;
  succeeded: number;
  errored: number;
  cancelled: number;
  /** The point's export folder, relative to the sweep folder. */
  dir: string;
}
