// Generation delay (GuideLLM): the time spent producing each conversation before it can be
// scheduled. A source that blocks in next() shows in it, once per conversation; later turns carry none.
import { describe, expect, it } from 'vitest';
import { SessionFeeder } from '../../../src/load/sessions.js';
import { withTestDelay, DATASET_DELAY_ENV } from '../../../src/dataset/test-delay.js';
import { generationDelay } from '../../../src/metrics/families/scheduling.js';
import type { Conversation, ConversationSource } from '../../../src/dataset/types.js';
import type { MetricRecord } from '../../../src/model/processed-record.js';

function source(turns: number): ConversationSource {
  let i = 0;
  return {
    kind: 'test',
    size: null,
    hasTimestamps: false,
    next: (): Conversation => ({
      id: `c${i++}`,
      turns: Array.from({ length: turns }, (_, k) => ({ prompt: `turn ${k}`, isl: 2, max_tokens: 4, timestamp_ms: null, delay_ms: null })),
    }),
  };
}

describe('generation delay', () => {
  it('a slow dataset iterator shows in every first turn, and a fast one does not', () => {
    const slow = new SessionFeeder(withTestDelay(source(1), { [DATASET_DELAY_ENV]: '25' }));
    const fast = new SessionFeeder(withTestDelay(source(1), {}));
    for (let i = 0; i < 4; i++) {
      expect(slow.nextNew().generationNs!).toBeGreaterThanOrEqual(25e6);
      expect(fast.nextNew().generationNs!).toBeLessThan(25e6);
    }
  });

  it('is recorded once per conversation: the next turn of a session has none', () => {
    const feeder = new SessionFeeder(source(2));
    const first = feeder.nextNew();
    expect(first.generationNs).toBeGreaterThanOrEqual(0);
    const next = feeder.settle(first, { status: 'ok', reply: 'hi' }, 0n);
    expect(next?.ticket.generationNs).toBeUndefined();
  });

  it('the metric is the record field, and absent without it', () => {
    const rec = { generation_delay_ns: 1234 } as unknown as MetricRecord;
    expect(generationDelay.compute(rec, new Map())).toBe(1234);
    expect(generationDelay.compute({ generation_delay_ns: null } as unknown as MetricRecord, new Map())).toBeUndefined();
  });
});
