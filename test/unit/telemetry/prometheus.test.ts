import { describe, expect, it } from 'vitest';
import { parsePrometheusText, parseSampleLine } from '../../../src/telemetry/prometheus.js';

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
