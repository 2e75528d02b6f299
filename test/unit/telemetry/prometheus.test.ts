import { describe, expect, it } from 'vitest';
import { parseExposition, parsePrometheusText, parseSampleLine } from '../../../src/telemetry/prometheus.js';

describe('parseSampleLine', () => {
  it('reads name, labels (with escapes), value and timestamp', () => {
    expect(parseSampleLine('DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="GPU-1",modelName="H100 \\"SXM\\"\\\\x"} 312.5 1700000000000')).toEqual({
      name: 'DCGM_FI_DEV_POWER_USAGE',
      labels: { gpu: '0', UUID: 'GPU-1', modelName: 'H100 "SXM"\\x' },
      value: 312.5,
      timestamp_ms: 1700000000000,
    });
    expect(parseSampleLine('up 1')).toEqual({ name: 'up', labels: {}, value: 1, timestamp_ms: null });
    expect(parseSampleLine('x{a="1",} 2e3')?.value).toBe(2000);
    expect(parseSampleLine('x{a = "1"} -0.5')?.labels).toEqual({ a: '1' });
  });

  it('keeps NaN and infinities', () => {
    expect(parseSampleLine('x NaN')?.value).toBeNaN();
    expect(parseSampleLine('x +Inf')?.value).toBe(Infinity);
    expect(parseSampleLine('x -Inf')?.value).toBe(-Infinity);
  });

  it.each(['x', 'x{a="1"}', 'x{a="1" 3', 'x{a=1} 3', 'x{1a="b"} 3', 'x{a="\\q"} 3', 'x abc', 'x 1 2 3', 'x 1 1.5', '9x 1', 'x{a="1"}3'])(
    'rejects %j',
    (line) => {
      expect(parseSampleLine(line)).toBeUndefined();
    },
  );
});

describe('parsePrometheusText', () => {
  it('skips comments and blank lines, counts malformed lines, filters by name', () => {
    const text = [
      '# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).',
      '# TYPE DCGM_FI_DEV_POWER_USAGE gauge',
      'DCGM_FI_DEV_POWER_USAGE{gpu="0"} 100',
      '',
      'garbage line here',
      'DCGM_FI_DEV_POWER_USAGE{gpu="1" 200',
      'DCGM_FI_DEV_POWER_USAGE{gpu="1"} 200\r',
      'OTHER_METRIC{gpu="1"} 7',
    ].join('\n');
    const all = parsePrometheusText(text);
    expect(all.malformed).toBe(2);
    expect(all.samples.map((s) => s.value)).toEqual([100, 200, 7]);
    const kept = parsePrometheusText(text, new Set(['DCGM_FI_DEV_POWER_USAGE']));
    expect(kept.samples.map((s) => s.labels.gpu)).toEqual(['0', '1']);
    expect(kept.malformed).toBe(2);
  });
});

describe('parseExposition', () => {
  it('assigns samples to their families by type and suffix, with help and unit', () => {
    const e = parseExposition(
      [
        '# HELP h_seconds A histogram\\nof time.',
        '# TYPE h_seconds histogram',
        'h_seconds_bucket{le="1"} 2',
        'h_seconds_bucket{le="+Inf"} 3',
        'h_seconds_sum 1.5',
        'h_seconds_count 3',
        '# TYPE c_total counter',
        'c_total 7',
        '# TYPE s summary',
        's{quantile="0.5"} 0.2',
        's_sum 4',
        's_count 10',
        'loose_metric 1',
      ].join('\n'),
    );
    expect(e.malformed).toBe(0);
    expect(e.familyOf).toEqual(['h_seconds', 'h_seconds', 'h_seconds', 'h_seconds', 'c_total', 's', 's', 's', 'loose_metric']);
    expect(e.families.get('h_seconds')).toEqual({ name: 'h_seconds', type: 'histogram', help: 'A histogram\nof time.', unit: null });
    expect(e.families.get('loose_metric')?.type).toBe('untyped');
    expect(e.openmetrics).toBe(false);
  });

  it('reads OpenMetrics: counters named without _total, exemplars, float-second timestamps, # EOF', () => {
    const e = parseExposition(
      [
        '# TYPE req counter',
        '# UNIT req requests',
        'req_total{code="200"} 5 1700000000.5',
        'req_created{code="200"} 1700000000',
        '# TYPE lat histogram',
        'lat_bucket{le="0.1"} 1 # {trace_id="abc"} 0.05 1700000000.1',
        'lat_bucket{le="+Inf"} 1',
        '# TYPE st stateset',
        'st{st="a"} 1',
        '# EOF',
      ].join('\n'),
      'application/openmetrics-text; version=1.0.0',
    );
    expect(e.openmetrics).toBe(true);
    expect(e.malformed).toBe(0);
    expect(e.familyOf).toEqual(['req', 'req', 'lat', 'lat', 'st']);
    expect(e.families.get('req')).toMatchObject({ type: 'counter', unit: 'requests' });
    expect(e.samples[0]).toEqual({ name: 'req_total', labels: { code: '200' }, value: 5, timestamp_ms: 1700000000500 });
    expect(e.samples[2].value).toBe(1);
  });

  it('counts a duplicate label, an unknown type and a second # TYPE as malformed, and goes on', () => {
    const e = parseExposition(['x{a="1",a="2"} 1', '# TYPE y wibble', '# TYPE z gauge', '# TYPE z counter', 'z 3'].join('\n'));
    expect(e.malformed).toBe(3);
    expect(e.samples.map((s) => s.name)).toEqual(['z']);
    expect(e.families.get('z')?.type).toBe('gauge');
  });
});
