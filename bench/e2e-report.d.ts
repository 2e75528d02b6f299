// Types of bench/e2e-report.js, for its unit test.
export interface ReportTable {
  title: string;
  columns: string[];
  rows: string[][];
}
export interface E2EResults {
  reps: number;
  small: number;
  big: number;
  keep_requests: number;
  runs: Record<string, unknown[]>;
}
export interface E2ESetting {
  C: number;
  OSL: number;
  COST: { ttft: number; itl: number };
  KEEP: { ttft: number; itl: number };
  offeredCost: number;
  offeredKeep: number;
}
export declare function report(
  results: E2EResults,
  keys: string[],
  labels: Record<string, string>,
  setting: E2ESetting,
): { tables: ReportTable[]; targets: string[] };
