// Output counts under the server's tokenizer (--tokenizer server), for the record workers: per batch,
// every text still to be counted goes to the tokenize endpoint (a bounded number at a time, off the
// sending thread), and the counts come back as a plain lookup for the synchronous batch code.
// Once the server's own usage.completion_tokens has agreed with the endpoint on SAMPLE outputs, the
// usage is trusted for outputs that carry it, and those are no longer sent; one disagreement and
// every output is counted through the endpoint.
import { ServerTokenCounter } from './server.js';
import type { TokenizeSpec } from './types.js';

export interface TextsToCount {
  input: string[] | null;
  output: string | null;
  reasoning: string | null;
}

export interface UsageCounts {
  completion_tokens: number | null;
  reasoning_tokens: number | null;
}

/** Outputs whose usage must agree with the endpoint before the usage is trusted. */
const SAMPLE = 8;

export class ServerBatchCounter {
  private readonly counter: ServerTokenCounter;
  private agreed = 0;
  private trust: 'unknown' | 'usage' | 'endpoint' = 'unknown';
  /** The batch counting now; while the sample is still out, batches wait for it, or they would all be sent. */
  private previous: Promise<unknown> = Promise.resolve();

  constructor(spec: TokenizeSpec) {
    this.counter = new ServerTokenCounter(spec, 8);
  }

  /** 'usage' once the sample agreed; 'endpoint' once any output disagreed. */
  get source(): 'unknown' | 'usage' | 'endpoint' {
    return this.trust;
  }

  /**
   * Counts the texts of a batch; the lookup throws for a text the server would not count (its
   * record then becomes an error record, with the reason).
   */
  async countBatch(items: readonly { texts: TextsToCount; usage: UsageCounts | null | undefined }[]): Promise<(text: string) => number> {
    if (this.trust === 'unknown') {
      const mine = this.previous.then(() => this.countNow(items));
      this.previous = mine.catch(() => {});
      return mine;
    }
    return this.countNow(items);
  }

  private async countNow(
    items: readonly { texts: TextsToCount; usage: UsageCounts | null | undefined }[],
  ): Promise<(text: string) => number> {
    const counts = new Map<string, number>();
    const failed = new Map<string, string>();
    const jobs: Promise<void>[] = [];
    const ask = (text: string, usage?: number): void => {
      if (counts.has(text) || failed.has(text)) return;
      counts.set(text, -1);
      jobs.push(
        this.counter.count(text).then(
          (n) => {
            counts.set(text, n);
            if (usage !== undefined) this.observe(usage === n);
          },
          (err: unknown) => {
            counts.delete(text);
            failed.set(text, err instanceof Error ? err.message : String(err));
          },
        ),
      );
    };
    // Outputs the server's usage may count: while the sample is out, only as many go to the endpoint
    // as the sample still needs; the rest wait for its verdict.
    const deferred: { out: string; u: number }[] = [];
    for (const { texts, usage } of items) {
      for (const t of texts.input ?? []) ask(t);
      if (texts.reasoning !== null) ask(texts.reasoning);
      const out = texts.output;
      if (out === null) continue;
      // Usage counts reasoning too; only an output without reasoning compares one to one.
      const u = usage?.completion_tokens ?? null;
      const comparable = u !== null && texts.reasoning === null && !usage?.reasoning_tokens;
      if (!comparable || this.trust === 'endpoint') ask(out);
      else if (this.trust === 'usage') counts.set(out, u);
      else if (jobs.length < SAMPLE - this.agreed) ask(out, u);
      else deferred.push({ out, u });
    }
    await Promise.all(jobs);
    // Rounds of at most what the sample still needs, until the verdict is in or nothing is left.
    while (deferred.length > 0) {
      jobs.length = 0;
      const round = this.trust === 'unknown' ? deferred.splice(0, Math.max(1, SAMPLE - this.agreed)) : deferred.splice(0);
      for (const { out, u } of round) {
        if (this.trust === 'usage') {
          if (!counts.has(out)) counts.set(out, u);
        } else ask(out, u);
      }
      await Promise.all(jobs);
    }
    return (text: string) => {
      if (text === '') return 0;
      const n = counts.get(text);
      if (n !== undefined && n >= 0) return n;
      throw new Error(`the server's tokenizer did not count this text: ${failed.get(text) ?? 'no answer'}`);
    };
  }

  private observe(agrees: boolean): void {
    if (this.trust !== 'unknown') return;
    if (!agrees) this.trust = 'endpoint';
    else if (++this.agreed >= SAMPLE) this.trust = 'usage';
  }
}
