import { describe, expect, it } from 'vitest';
import { displayFactor, toDisplay, withUnit } from '../../../../src/metrics/core/units.js';
import { defaultMetricDefs, displayUnitOf } from '../../../../src/metrics/catalogue.js';

describe('units', () => {
  it('converts ns to ms and s', () => {
    expect(toDisplay(1_500_000, 'ns', 'ms')).toBe(1.5);
    expect(toDisplay(2_000_000_000, 'ns', 's')).toBe(2);
    expect(toDisplay(42, 'tokens/s', 'tokens/s')).toBe(42);
    expect(toDisplay(12.5, 'percent', '%')).toBe(12.5);
  });

  it('rejects a pair no metric should declare', () => {
    expect(() => displayFactor('tokens', 'ms')).toThrow(/no conversion from tokens to ms/);
  });

  it('has a conversion for every metric in the catalogue', () => {
    for (const def of defaultMetricDefs) expect(() => displayFactor(def.unit, def.display), def.tag).not.toThrow();
  });

  it('labels a header with its display unit', () => {
    expect(withUnit('Time to First Token', 'ms')).toBe('Time to First Token (ms)');
  });

  it('looks up the display unit and scale of a tag', () => {
    expect(displayUnitOf('time_to_first_token')).toEqual({ unit: 'ms', scale: 1e-6 });
    expect(displayUnitOf('output_sequence_length')).toEqual({ unit: 'tokens', scale: 1 });
    expect(displayUnitOf('nope')).toBeUndefined();
  });
});
