import { describe, expect, it } from 'vitest';
import { formatNumber, stringifyWithBigInt } from '../../../src/export/format.js';

describe('stringifyWithBigInt', () => {
  it('writes bigints as bare, exact integer literals', () => {
    const big = 2n ** 64n + 1n;
    expect(stringifyWithBigInt({ a: big, b: [-5n, 1] })).toBe('{"a":18446744073709551617,"b":[-5,1]}');
    expect(stringifyWithBigInt(123n)).toBe('123');
  });

  it('matches JSON.stringify on plain values, compact and indented', () => {
    const v = { s: 'q"\n\u2028', n: 1.5, t: true, z: null, arr: [1, { x: [] }, {}], nested: { deep: { k: 'v' } } };
    expect(stringifyWithBigInt(v)).toBe(JSON.stringify(v));
    expect(stringifyWithBigInt(v, 2)).toBe(JSON.stringify(v, null, 2));
  });

  it('follows JSON.stringify for undefined, functions, non-finite numbers and toJSON', () => {
    const v = { u: undefined, f: () => 1, arr: [undefined, NaN, Infinity], d: new Date(0), keep: 1 };
    expect(stringifyWithBigInt(v)).toBe(JSON.stringify(v));
    expect(stringifyWithBigInt(undefined)).toBe('null');
  });

  it('round-trips through JSON.parse for values below 2^53', () => {
    expect(JSON.parse(stringifyWithBigInt({ t: 1_700_000_000_000_000n }))).toEqual({ t: 1_700_000_000_000_000 });
  });

  it('throws on a cycle', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => stringifyWithBigInt(a)).toThrow(/circular/);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { x: 1n };
    expect(stringifyWithBigInt([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

describe('formatNumber', () => {
  it('groups thousands and fixes decimals', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber(999.999)).toBe('1,000.00');
    expect(formatNumber(0.5)).toBe('0.50');
    expect(formatNumber(12, 0)).toBe('12');
    expect(formatNumber(-1234.5)).toBe('-1,234.50');
  });
  it('prints a value that rounds to zero unsigned', () => {
    expect(formatNumber(-0.001)).toBe('0.00');
  });
});
