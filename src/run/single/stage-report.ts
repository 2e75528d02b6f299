// --stages: what each stage achieved, from the profiling records: requests sent in it (by their
// send stamp), the achieved send rate against the target's mean (rate target: the stage's
// expected count over its duration), completions, and the time-averaged requests in flight.
import type { SliceRecord } from '../../timeslices/slices.js';
import { stageBounds, type StageQuantity, type Stage } from '../../load/stages.js';
import { renderTable } from '../../export/table.js';

export interface StageResult {
  index: number;
  start_s: number;
  end_s: number;
  target: StageQuantity;
  target_from: number;
  target_to: number;
  /** Rate target: requests due in the stage (its mean rate × its duration); null under a concurrency target. */
  expected_requests: number | null;
  expected_rate: number | null;
  /** Profiling requests whose send stamp falls in the stage. */
  sent: number;
  achieved_rate: number;
  /** achieved_rate / expected_rate (rate target). */
  achieved_ratio: number | null;
  /** Requests that ended in the stage, and per second. */
  completed: number;
  completed_rate: number;
  /** Time-averaged profiling requests in flight over the stage. */
  mean_in_flight: number;
}

export function stageResults(
  target: StageQuantity,
  stages: readonly Stage[],
  startNs: bigint,
  records: readonly Pick<SliceRecord, 'raw'>[],
): StageResult[] {
  return stageBounds(stages).map((b, index) => {
    const d = b.endNs - b.startNs;
    let sent = 0;
    let completed = 0;
    let busyNs = 0;
    for (const r of records) {
      if (r.raw.credit.phase !== 'profiling') continue;
      const s = Number(r.raw.start_ns - startNs);
      const e = Number(r.raw.end_ns - startNs);
      if (s >= b.startNs && s < b.endNs) sent++;
      if (e >= b.startNs && e < b.endNs) completed++;
      busyNs += Math.max(0, Math.min(e, b.endNs) - Math.max(s, b.startNs));
    }
    const seconds = d / 1e9;
    const expected = target === 'rate' ? ((b.from + b.to) / 2) * seconds : null;
    const expectedRate = expected === null ? null : expected / seconds;
    const achieved = sent / seconds;
    return {
      index,
      start_s: b.startNs / 1e9,
      end_s: b.endNs / 1e9,
      target,
      target_from: b.from,
      target_to: b.to,
      expected_requests: expected,
      expected_rate: expectedRate,
      sent,
      achieved_rate: achieved,
      achieved_ratio: expectedRate ? achieved / expectedRate : null,
      completed,
      completed_rate: completed / seconds,
      mean_in_flight: busyNs / d,
    };
  });
}

const f = (v: number | null, d = 2) => (v === null ? '-' : v.toFixed(d));

export function renderStages(results: readonly StageResult[], color: boolean): string {
  const rate = results[0]?.target === 'rate';
  return renderTable({
    title: `Stages (${rate ? 'request rate' : 'concurrency'} target)`,
    color,
    columns: [
      { header: 'Stage', align: 'right' },
      { header: 'Time (s)', align: 'left' },
      { header: rate ? 'Target (req/s)' : 'Target (in flight)', align: 'left' },
      { header: 'Expected req/s', align: 'right' },
      { header: 'Achieved req/s', align: 'right' },
      { header: 'Achieved/expected', align: 'right' },
      { header: 'Completed req/s', align: 'right' },
      { header: 'Mean in flight', align: 'right' },
    ],
    rows: results.map((r) => [
      String(r.index + 1),
      `${f(r.start_s, 1)}–${f(r.end_s, 1)}`,
      `${r.target_from} → ${r.target_to}`,
      f(r.expected_rate),
      f(r.achieved_rate),
      r.achieved_ratio === null ? '-' : `${(r.achieved_ratio * 100).toFixed(1)} %`,
      f(r.completed_rate),
      f(r.mean_in_flight),
    ]),
  });
}
