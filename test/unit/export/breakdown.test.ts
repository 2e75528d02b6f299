// The breakdown per URL and per model: from the records' url and model (as records.jsonl carries
// them), each group summarized on its own; none when a run had one URL and one model.
import { describe, expect, it } from 'vitest';
import { buildBreakdown } from '../../../src/export/breakdown.js';
import { recordLine } from '../../../src/export/records.js';
import { defaultRegistry, displayUnitOf } from '../../../src/metrics/catalogue.js';
import { parseRecordLine } from '../../../src/records/read.js';

const reg = defaultRegistry();

function line(i: number, url: string, model: string, ttftMs: number): string {
  const start = 1_000_000_000 + i * 1_000_000;
  return JSON.stringify({
    x_request_id: `r${i}`,
    index: i,
    phase: 'profiling',
    credit_issued_ns: start,
    targeted_start_ns: null,
    start_ns: start,
    end_ns: start + 50_000_000,
    last_content_ns: start + 50_000_000,
    status: 'ok',
    error: null,
    http_status: 200,
    streaming: true,
    max_tokens: 4,
    url,
    model,
    metrics: { time_to_first_token: { value: ttftMs, unit: 'ms' }, request_latency: { value: 50, unit: 'ms' } },
  });
}

describe('breakdown', () => {
  it('groups by url and by model, each with its own counts and metrics', () => {
    const recs = [
      line(0, 'http://a', 'm1', 10),
      line(1, 'http://b', 'm2', 30),
      line(2, 'http://a', 'm2', 12),
      line(3, 'http://a', 'm1', 14),
    ].map((l, i) => parseRecordLine(l, `x:${i}`, reg));
    const b = buildBreakdown(recs);
    expect(b).not.toBeNull();
    expect(b!.json.url!['http://a'].counts.issued).toBe(3);
    expect(b!.json.url!['http://a'].metrics.time_to_first_token).toMatchObject({ avg: expect.closeTo(12, 1) });
    expect(b!.json.url!['http://b'].metrics.time_to_first_token).toMatchObject({ avg: expect.closeTo(30, 1) });
    expect(Object.keys(b!.json.model!)).toEqual(['m1', 'm2']);
    expect(b!.console).toContain('Breakdown per URL');
  });

  it('is absent for one URL and one model, and for records without targets', () => {
    const one = [line(0, 'http://a', 'm', 10), line(1, 'http://a', 'm', 11)].map((l, i) => parseRecordLine(l, `x:${i}`, reg));
    expect(buildBreakdown(one)).toBeNull();
  });

  it('a record line names url and model, and reads back', () => {
    const rec = parseRecordLine(line(0, 'http://a:1/v', 'lora-1', 10), 'x:1', reg);
    const text = recordLine(rec, 'records', (t) => displayUnitOf(t));
    expect(JSON.parse(text)).toMatchObject({ url: 'http://a:1/v', model: 'lora-1' });
    expect(parseRecordLine(text, 'x:2', reg).raw.credit.target).toEqual({ url: 'http://a:1/v', model: 'lora-1' });
  });
});
