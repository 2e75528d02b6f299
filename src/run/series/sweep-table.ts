// The sweep's console table: one row per point.
import { formatNumber } from '../../export/format.js';
import { renderTable } from '../../export/table.js';
import type { SweepRow } from './types.js';

const num = (v: number | null, d = 2) => (v === null ? '-' : formatNumber(v, d));

export function renderSweepTable(rows: readonly SweepRow[], opts: { color?: boolean; ascii?: boolean } = {}): string {
  return renderTable({
    title: 'Sweep',
    color: opts.color,
    ascii: opts.ascii,
    columns: [
      { header: 'point', align: 'right' },
      { header: 'strategy', align: 'left' },
      { header: 'concurrency', align: 'right' },
      { header: 'target req/s', align: 'right' },
      { header: 'achieved req/s', align: 'right' },
      { header: 'TTFT p50 (ms)', align: 'right' },
      { header: 'TTFT p99 (ms)', align: 'right' },
      { header: 'ITL p50 (ms)', align: 'right' },
      { header: 'ITL p99 (ms)', align: 'right' },
      { header: 'output tok/s', align: 'right' },
      { header: 'goodput', align: 'right' },
      { header: 'ok/issued', align: 'right' },
    ],
    rows: rows.map((r) => [
      String(r.point),
      r.strategy,
      r.concurrency === null ? '-' : String(r.concurrency),
      num(r.target_request_rate),
      num(r.achieved_request_rate),
      num(r.ttft_p50_ms),
      num(r.ttft_p99_ms),
      num(r.itl_p50_ms),
      num(r.itl_p99_ms),
      num(r.output_token_throughput, 1),
      num(r.goodput),
      `${r.succeeded}/${r.issued}`,
    ]),
  });
}
