import { describe, expect, it } from 'vitest';
import { InvalidFileError } from '../../../src/errors.js';
import { recordLine } from '../../../src/export/records.js';
import { defaultRegistry, displayUnitOf } from '../../../src/metrics/catalogue.js';
import { parseRecordLine } from '../../../src/records/read.js';

const reg = defaultRegistry();
const line = (over: string) =>
  `{"x_request_id":"a","index":3,"phase":"profiling","credit_issued_ns":9007199254740993,"targeted_start_ns":null,"start_ns":9007199254741001,"end_ns":9007199354741001,"status":"ok","error":null,"http_status":200,"bytes_sent":1,"bytes_received":2,"streaming":true,"max_tokens":16,"metrics":{"time_to_first_token":{"value":12.5,"unit":"ms"},"inter_chunk_latency":{"value":[1,2],"unit":"ms"},"output_token_count":{"value":16,"unit":"tokens"}}${over}}`;

describe('parseRecordLine', () => {
  it('keeps every digit of stamps above 2^53 and turns display units back into base units', () => {
    const r = parseRecordLine(line(''), 'f:1', reg);
    expect(r.raw.credit.credit_issued_ns).toBe(9007199254740993n);
    expect(r.raw.start_ns).toBe(9007199254741001n);
    expect(r.metrics.get('time_to_first_token')).toBe(12.5e6);
    expect(r.metrics.get('inter_chunk_latency')).toEqual([1e6, 2e6]);
    expect(r.metric_input.token_ns).toEqual([9007199254741001n + 12_500_000n]);
    expect(r.metric_input.output_tokens).toBe(16);
    expect(r.metric_input.requested_osl).toBe(16);
  });

  it('reads where request_latency ended (last_content_ns) exactly; a file from before the field: the last byte', () => {
    const r = parseRecordLine(line(',"last_content_ns":9007199254741011'), 'f:1', reg);
    expect(r.metric_input.last_content_ns).toBe(9007199254741011n);
    expect(r.metric_input.end_ns).toBe(9007199354741001n);
    expect(parseRecordLine(line(',"last_content_ns":null'), 'f:1', reg).metric_input.last_content_ns).toBeNull();
    expect(parseRecordLine(line(''), 'f:1', reg).metric_input.last_content_ns).toBe(9007199354741001n);
    expect(() => parseRecordLine(line(',"last_content_ns":"x"'), 'f:1', reg)).toThrow(/last_content_ns must be an integer/);
  });

  it('finish_reason round-trips through recordLine; a file from before the field reads null; a wrong type is bad', () => {
    const old = parseRecordLine(line(''), 'f:1', reg);
    expect(old.finish_reason).toBeNull();
    for (const why of ['length', 'odd "quoted" ü', null]) {
      const text = recordLine({ ...old, finish_reason: why }, 'records', displayUnitOf);
      expect(JSON.parse(text).finish_reason).toBe(why);
      expect(parseRecordLine(text, 'f:2', reg).finish_reason).toBe(why);
    }
    expect(() => parseRecordLine(line(',"finish_reason":7'), 'f:3', reg)).toThrow(/f:3: finish_reason must be a string or null/);
  });

  it('reads raw-level chunk stamps exactly', () => {
    const r = parseRecordLine(line(',"chunk_ns":[9007199254741003,9007199254741005]'), 'f:1', reg);
    expect(r.raw.event_ns).toEqual([9007199254741003n, 9007199254741005n]);
  });

  it.each([
    ['not json', /f:7: not JSON/],
    ['{"phase":"later","status":"ok"}', /f:7: phase must be/],
    ['{"phase":"profiling","status":"fine"}', /f:7: status must be/],
    ['{"phase":"profiling","status":"ok","start_ns":"x"}', /f:7: start_ns must be an integer/],
  ])('%s → one clear error naming the line', (text, re) => {
    expect(() => parseRecordLine(text, 'f:7', reg)).toThrow(InvalidFileError);
    expect(() => parseRecordLine(text, 'f:7', reg)).toThrow(re);
  });
});
