// Types of bench/sweep-js.js, so the TS tests can use it as their oracle.
import type { SweepColumns, SweepResult, SweepRow } from '../src/metrics/core/timeline.js';

export declare const ROWS: readonly SweepRow[];
export declare function jsSweep(cols: SweepColumns, w0: number, w1: number): SweepResult;
