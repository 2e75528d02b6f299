// Types of bench/e2e-scale.js, for its unit test.
import type { Prediction, ThreadSplit } from './scale-model.js';

export interface ScaleRow {
  label: string;
  extra: string[];
  cpus: string;
  spread: boolean;
}
export interface ScalePrediction {
  cores: number;
  basis: string | null;
  split: ThreadSplit | null;
  rows: (Prediction & { io_threads: number })[];
  best: (Prediction & { ioThreads: number }) | null;
  assumptions: string;
  /** From the both-CPUs 2-thread row, when it ran. */
  from_spread?: { split: ThreadSplit; best: Prediction & { ioThreads: number } };
}
export declare const PREDICT_CORES: number;
export declare function scaleClients(opts?: { quick?: boolean }): Record<string, ScaleRow>;
export declare function scaleReport(
  results: { runs: Record<string, unknown[]> },
  rows: Record<string, ScaleRow>,
  setting: { C: number; OSL: number; COST: number; KEEP: number; offeredCost: number; offeredKeep: number },
): { tables: unknown[]; lines: string[]; prediction: ScalePrediction };
