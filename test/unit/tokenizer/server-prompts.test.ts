// Prompts calibrated against a tokenizer that can only count (the server's, under --tokenizer
// server): every prompt is exactly its length, prompts of one length differ from their first
// token, and a tokenizer that breaks the table's assumptions is refused at calibration.
import { describe, expect, it } from 'vitest';
import { TokenizerLoadError } from '../../../src/errors.js';
import { countWords } from '../../../src/mock/words.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import { ServerPrompts } from '../../../src/tokenizer/server-prompts.js';
import { mergingTokenizer } from '../../helpers/fake-tokenizers.js';

/** A counter that answers like a server, counting the requests it got. */
function counted(count: (t: string) => number) {
  const calls = { n: 0 };
  const countAll = async (texts: readonly string[]) => {
    calls.n += texts.length;
    return texts.map(count);
  };
  return { calls, countAll };
}

describe('ServerPrompts', () => {
  it('under the mock words tokenizer, every length from 1 to past two corpus copies is exact', async () => {
    const { calls, countAll } = counted(countWords);
    const table = await ServerPrompts.calibrate(countAll);
    // Calibration is a bounded number of counts, not one per length.
    expect(calls.n).toBeLessThan(1000);
    const before = calls.n;
    for (let n = 1; n <= 3500; n += n < 80 ? 1 : 37) {
      expect(countWords(table.prompt(n, BigInt(n), 99n)), `length ${n}`).toBe(n);
    }
    // Making prompts asks nothing more of the server.
    expect(calls.n).toBe(before);
  });

  it('prompts of one length differ from their first word', async () => {
    const table = await ServerPrompts.calibrate(counted(countWords).countAll);
    const prompts = Array.from({ length: 200 }, (_, i) => table.prompt(64, BigInt(i), 7n));
    expect(new Set(prompts).size).toBe(200);
    expect(new Set(prompts.map((p) => p.split(' ')[0])).size).toBeGreaterThan(10);
  });

  it('under cl100k (another tokenizer with word boundaries), prompts are exact too', async () => {
    const tok = await loadTokenizer();
    const table = await ServerPrompts.calibrate(counted((t) => tok.count(t)).countAll);
    for (const n of [1, 2, 3, 4, 7, 50, 128, 1000, 2500]) expect(tok.count(table.prompt(n, BigInt(n * 31), 5n)), `length ${n}`).toBe(n);
  });

  it('refuses a tokenizer without one-token words, in one line', async () => {
    const merge = mergingTokenizer('server-prompts-merge');
    const err = await ServerPrompts.calibrate(counted((t) => merge.count(t)).countAll).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TokenizerLoadError);
    expect((err as Error).message).toMatch(/^--tokenizer server: cannot make prompts of exact length/);
    expect((err as Error).message).not.toContain('\n');
  });
});
