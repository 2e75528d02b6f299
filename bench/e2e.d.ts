// Types of bench/e2e.js, for the smoke test of its C tools.
export declare function buildTools(dir: string): { epoll_reader: string; rusage: string };
export declare function lastJsonLine(text: string): Record<string, unknown> | null;
export declare function offered(concurrency: number, mock: { ttft: number; itl: number }): number;
export declare function runE2E(opts?: { quick?: boolean; reps?: number | null; log?: (m: string) => void }): Promise<{
  results: Record<string, unknown>;
  tables: { title: string; columns: string[]; rows: string[][] }[];
  targets: string[];
  scale: string[];
}>;
