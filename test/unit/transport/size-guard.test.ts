// The undici transport's size caps: event boundaries found from each chunk's end, across chunks too.
import { describe, expect, it } from 'vitest';
import { SizeGuard } from '../../../src/transport/size-guard.js';

const limits = { maxResponseBytes: 10_000, maxEventBytes: 100 };
const feed = (g: SizeGuard, ...chunks: string[]) => chunks.map((c) => g.add(Buffer.from(c))?.message ?? null);

describe('SizeGuard', () => {
  it('counts an event from the last blank line, whatever the line ends', () => {
    for (const blank of ['\n\n', '\r\r', '\r\n\r\n', '\n\r\n', '\r\n\n']) {
      const g = new SizeGuard(limits, true);
      // 95 bytes of an event, its end, then 95 more: never 100 in one event.
      expect(feed(g, 'x'.repeat(95) + blank + 'y'.repeat(90), 'y'.repeat(5) + blank + 'z'.repeat(95))).toEqual([null, null]);
    }
  });

  it('finds a boundary split across two chunks, and a CRLF split across them is none', () => {
    const g = new SizeGuard(limits, true);
    expect(feed(g, 'x'.repeat(90) + '\n', '\n' + 'y'.repeat(95))).toEqual([null, null]);
    const h = new SizeGuard(limits, true);
    expect(feed(h, 'x'.repeat(90) + '\r', '\n' + 'y'.repeat(20))).toEqual([null, 'event over 100 bytes (--max-event-bytes)']);
  });

  it('catches an endless line, and a whole event over the cap inside one large chunk', () => {
    const g = new SizeGuard(limits, true);
    expect(feed(g, 'a'.repeat(60), 'a'.repeat(60))).toEqual([null, 'event over 100 bytes (--max-event-bytes)']);
    const h = new SizeGuard(limits, true);
    expect(feed(h, 'data: ' + 'a'.repeat(150) + '\n\n' + 'data: ok\n\n')).toEqual(['event over 100 bytes (--max-event-bytes)']);
  });

  it('caps the body whether framed or not', () => {
    const g = new SizeGuard(limits, false);
    expect(feed(g, 'a'.repeat(6000), 'a'.repeat(6000))).toEqual([null, 'response over 10000 bytes (--max-response-bytes)']);
    const e = new SizeGuard(limits, true).add(Buffer.from('x'.repeat(20_000)));
    expect(e).toMatchObject({ type: 'parse_error', message: 'response over 10000 bytes (--max-response-bytes)' });
  });
});
