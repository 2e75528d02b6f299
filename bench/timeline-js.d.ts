// Types of bench/timeline-js.js, so the TS tests can use it as their oracle.
import type { TimelineColumns, TimelineResult, TimelineRow } from '../src/metrics/core/timeline.js';

export declare const ROWS: readonly TimelineRow[];
export declare function jsTimeline(cols: TimelineColumns, w0: number, w1: number): TimelineResult;
