// The download progress line: bytes, percentage, rate and ETA; nothing drawn off a terminal.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { progressBar, progressLine } from '../../../src/hub/progress.js';

describe('progressLine', () => {
  it('gives bytes done of the total, the rate and the time left', () => {
    const line = progressLine('org/m/tokenizer.json', 5 * 1024 * 1024, 20 * 1024 * 1024, 2);
    expect(line).toContain('org/m/tokenizer.json [######------------------]  25% 5.0 MiB/20.0 MiB 2.5 MiB/s ETA 6s');
    expect(progressLine('x', 10, null, 1)).toBe('x 10 B 10 B/s');
    expect(progressLine('x', 0, 3600 * 1024 * 1024, 1)).toContain('ETA --');
  });

  it('stays quiet when stderr is not a terminal', () => {
    const out = new PassThrough() as unknown as NodeJS.WriteStream;
    let written = '';
    (out as unknown as PassThrough).on('data', (d: Buffer) => (written += d.toString()));
    const bar = progressBar('x', 100, true, out);
    bar.add(50);
    bar.done();
    expect(written).toBe('');
  });
});
