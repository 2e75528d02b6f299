// Types of bench/scale-model.js, for its unit test.
export interface ThreadSplit {
  main_us: number;
  io_us: number;
  other_us: number;
}
export type Limit = 'main' | 'io' | 'cores';
export interface Prediction {
  events_per_s: number;
  limit: Limit;
  limit_text: string;
  bounds: { main: number; io: number; cores: number };
}
export declare const ASSUMPTIONS: string;
export declare function predict(split: ThreadSplit, opts?: { cores?: number; ioThreads?: number }): Prediction;
export declare function bestIoThreads(split: ThreadSplit, opts?: { cores?: number }): Prediction & { ioThreads: number };
