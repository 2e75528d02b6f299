import { describe, expect, it } from 'vitest';
import { LineBuffer } from '../../../src/run/pipeline/record-batch.js';

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

describe('LineBuffer', () => {
  it('encodes each line and its newline, as one string of the lines would encode', () => {
    const lines = ['{"a":1}', '東京 😀 \\"x\\"', '', 'é'.repeat(70_000), 'tail'];
    const b = new LineBuffer();
    for (const l of lines) b.append(l);
    const want = new TextEncoder().encode(lines.map((l) => l + '\n').join(''));
    expect(b.bytes()).toEqual(want);
  });

  it('writes into a spare buffer it is given, and grows past it keeping what was written', () => {
    const spare = new ArrayBuffer(64);
    const b = new LineBuffer(spare);
    b.append('short');
    expect(b.bytes().buffer).toBe(spare);
    b.append('x'.repeat(200));
    expect(b.bytes().buffer).not.toBe(spare);
    expect(decode(b.bytes())).toBe('short\n' + 'x'.repeat(200) + '\n');
  });

  it('takes a detached spare (posted away) as none, and allocates nothing for no lines', () => {
    const spare = new ArrayBuffer(1024);
    structuredClone(spare, { transfer: [spare] });
    expect(spare.byteLength).toBe(0);
    const b = new LineBuffer(spare);
    expect(b.bytes().byteLength).toBe(0);
    expect(b.bytes().buffer.byteLength).toBe(0);
    b.append('ok');
    expect(decode(b.bytes())).toBe('ok\n');
  });

  it('makes its buffer once, at the size it expects the lines to take, rather than doubling up to it', () => {
    const b = new LineBuffer(undefined, 300_000);
    b.append('first');
    const first = b.bytes().buffer;
    expect(first.byteLength).toBeGreaterThanOrEqual(300_000);
    for (let i = 0; i < 90; i++) b.append('y'.repeat(1000));
    expect(b.bytes().buffer).toBe(first);
    expect(b.bytes().byteLength).toBe(6 + 90 * 1001);
  });
});
