// Client-side timing of the spawned mock. Tolerances are for a noisy 2-core machine: medians,
// TTFT within +-15 ms, the ITL median within +-3 ms, and the whole decode span within +-25 ms
// (the span is what shows drift: chunks are scheduled at absolute times, so it must not grow).
import { describe, expect, it } from 'vitest';
import { countTokens, median, postSse, spawnMock, streamedContent, type SseEvent } from '../helpers/mock.js';

const messages = [{ role: 'user', content: 'Time me.' }];

function contentEvents(events: SseEvent[]): SseEvent[] {
  return events.filter((e) => e.json?.choices?.[0]?.delta?.content || e.json?.choices?.[0]?.delta?.reasoning_content);
}

// Other work shares the CPUs, and a stall on either side shows up as lateness; a real scheduling
// bug (drift, batching) fails every attempt, so a retry only absorbs a neighbour's burst.
describe('mock timing', { retry: 2 }, () => {
  it('--ttft-ms 50 --itl-ms 10: TTFT ~50 ms, ITL ~10 ms, no drift over 20 tokens', async () => {
    const mock = await spawnMock(['--ttft-ms', '50', '--itl-ms', '10']);
    try {
      const ttft: number[] = [];
      const gaps: number[] = [];
      const spans: number[] = [];
      for (let i = 0; i < 8; i++) {
        const r = await postSse(`${mock.url}/v1/chat/completions`, { messages, max_tokens: 20, stream: true });
        const c = contentEvents(r.events);
        expect(c).toHaveLength(20);
        ttft.push(c[0].t);
        for (let k = 1; k < c.length; k++) gaps.push(c[k].t - c[k - 1].t);
        spans.push(c[19].t - c[0].t);
      }
      expect(Math.abs(median(ttft) - 50)).toBeLessThanOrEqual(15);
      expect(Math.abs(median(gaps) - 10)).toBeLessThanOrEqual(3);
      expect(Math.abs(median(spans) - 190)).toBeLessThanOrEqual(25);
    } finally {
      await mock.stop();
    }
  });

  it('does not drift: 200 chunks at --itl-ms 5 span 995 ms (relative sleeps would add ~1 ms per chunk)', async () => {
    const mock = await spawnMock(['--ttft-ms', '10', '--itl-ms', '5']);
    try {
      const r = await postSse(`${mock.url}/v1/completions`, { prompt: 'long', max_tokens: 200, stream: true });
      const c = r.events.filter((e) => e.json?.choices?.[0]?.text);
      expect(c).toHaveLength(200);
      expect(Math.abs(c[199].t - c[0].t - 995)).toBeLessThanOrEqual(40);
    } finally {
      await mock.stop();
    }
  });

  it('keeps its timing with 64 concurrent streams (one shared clock)', async () => {
    const mock = await spawnMock(['--ttft-ms', '30', '--itl-ms', '10']);
    try {
      const rs = await Promise.all(
        Array.from({ length: 64 }, () => postSse(`${mock.url}/v1/chat/completions`, { messages, max_tokens: 20, stream: true })),
      );
      const spans = rs.map((r) => {
        const c = contentEvents(r.events);
        expect(c).toHaveLength(20);
        return c[19].t - c[0].t;
      });
      expect(Math.abs(median(spans) - 190)).toBeLessThanOrEqual(25);
    } finally {
      await mock.stop();
    }
  });

  it('--tokens-per-chunk 4: 20 tokens in 5 chunks one ITL apart', async () => {
    const mock = await spawnMock(['--ttft-ms', '20', '--itl-ms', '20', '--tokens-per-chunk', '4']);
    try {
      const r = await postSse(`${mock.url}/v1/chat/completions`, { messages, max_tokens: 20, stream: true });
      const c = contentEvents(r.events);
      expect(c).toHaveLength(5);
      expect(countTokens(streamedContent(r.events))).toBe(20);
      expect(Math.abs(c[4].t - c[0].t - 80)).toBeLessThanOrEqual(20);
    } finally {
      await mock.stop();
    }
  });

  it('role chunk comes with the first token by default, and --role-chunk-lead-ms ahead of it', async () => {
    const together = await spawnMock(['--ttft-ms', '60', '--itl-ms', '5']);
    try {
      const r = await postSse(`${together.url}/v1/chat/completions`, { messages, max_tokens: 3, stream: true });
      expect(r.events[0].json.choices[0].delta.role).toBe('assistant');
      expect(r.events[1].t - r.events[0].t).toBeLessThan(3);
    } finally {
      await together.stop();
    }
    const lead = await spawnMock(['--ttft-ms', '60', '--itl-ms', '5', '--role-chunk-lead-ms', '40']);
    try {
      const leads: number[] = [];
      const ttft: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await postSse(`${lead.url}/v1/chat/completions`, { messages, max_tokens: 3, stream: true });
        expect(r.events[0].json.choices[0].delta).toEqual({ role: 'assistant', content: '' });
        leads.push(r.events[1].t - r.events[0].t);
        ttft.push(r.events[1].t);
      }
      expect(Math.abs(median(leads) - 40)).toBeLessThanOrEqual(10);
      expect(Math.abs(median(ttft) - 60)).toBeLessThanOrEqual(15);
    } finally {
      await lead.stop();
    }
  });

  it('closing events: with the last token by default; --usage-delay-ms and --done-delay-ms after it', async () => {
    const body = { messages, max_tokens: 4, stream: true, stream_options: { include_usage: true } };
    const closing = (events: SseEvent[]) => {
      const last = contentEvents(events).at(-1)!;
      const usage = events.find((e) => e.json?.usage && e.json.choices?.length === 0)!;
      const done = events.at(-1)!;
      expect(done.data).toBe('[DONE]');
      return { usage: usage.t - last.t, done: done.t - usage.t };
    };
    const together = await spawnMock(['--ttft-ms', '10', '--itl-ms', '5']);
    try {
      const c = closing((await postSse(`${together.url}/v1/chat/completions`, body)).events);
      expect(c.usage).toBeLessThan(3);
      expect(c.done).toBeLessThan(3);
    } finally {
      await together.stop();
    }
    const late = await spawnMock(['--ttft-ms', '10', '--itl-ms', '5', '--usage-delay-ms', '40', '--done-delay-ms', '20']);
    try {
      const usage: number[] = [];
      const done: number[] = [];
      for (let i = 0; i < 5; i++) {
        const c = closing((await postSse(`${late.url}/v1/chat/completions`, body)).events);
        usage.push(c.usage);
        done.push(c.done);
      }
      // Counted from the writes, so a delay is never shortened (only lengthened by a busy host).
      expect(Math.min(...usage)).toBeGreaterThanOrEqual(39);
      expect(Math.abs(median(usage) - 40)).toBeLessThanOrEqual(10);
      expect(Math.min(...done)).toBeGreaterThanOrEqual(19);
      expect(Math.abs(median(done) - 20)).toBeLessThanOrEqual(10);
    } finally {
      await late.stop();
    }
  });

  it('--itl-ms 0 streams 5000 tokens fast and still exact, while staying responsive', async () => {
    const mock = await spawnMock(['--ttft-ms', '0', '--itl-ms', '0']);
    try {
      const r = await postSse(`${mock.url}/v1/chat/completions`, { messages, max_tokens: 5000, stream: true });
      expect(contentEvents(r.events)).toHaveLength(5000);
      expect(r.events.at(-1)!.data).toBe('[DONE]');
      expect(r.events.at(-1)!.t).toBeLessThan(2000);
    } finally {
      await mock.stop();
    }
  });
});
