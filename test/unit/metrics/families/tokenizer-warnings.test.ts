// The end-of-run warnings about token counts: a usage discrepancy on most requests names the
// tokenizer mismatch and its two fixes; the OSL mismatch warning never advises an --extra-inputs
// the run already passes. The wording is checked in both cases (ignore_eos passed, or not).
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../../src/metrics/accumulate.js';
import { oslMismatchWarning } from '../../../../src/metrics/families/osl-mismatch.js';
import { usageDiscrepancyWarning } from '../../../../src/metrics/families/usage-discrepancy.js';
import { catalogueProcessed } from '../catalogue-fixtures.js';

/** n records whose client OSL is `client` while the server's usage says `server` (48 requested). */
function run(n: number, client: number, server: number, agreeing = 0) {
  const records = [];
  for (let i = 0; i < n + agreeing; i++) {
    const out = i < n ? client : server;
    records.push(
      catalogueProcessed(
        { input: 64, output: out },
        { requested_osl: 48, usage: { prompt_tokens: 64, completion_tokens: server, total_tokens: 64 + server, reasoning_tokens: null } },
        { index: i },
      ),
    );
  }
  return summarize(records);
}

describe('usage discrepancy warning', () => {
  it('on most requests: names the tokenizer mismatch and both fixes', () => {
    const w = usageDiscrepancyWarning(run(6, 60, 48, 2))!;
    expect(w).toMatch(
      /^on most of 8 requests the output token count in the server's usage is more than 10 % away from servebench's own \(median 20\.0 %/,
    );
    expect(w).toContain('tokenizer mismatch');
    expect(w).toContain("--tokenizer <the model's Hugging Face id or tokenizer.json>");
    expect(w).toContain('--tokenizer server');
    expect(w).toContain('--use-server-token-count');
    expect(w).not.toContain('ignore_eos');
    expect(w).not.toContain('\n');
  });

  it('on a minority of requests, or none: no warning; the threshold is --usage-discrepancy-threshold', () => {
    expect(usageDiscrepancyWarning(run(2, 60, 48, 6))).toBeNull();
    expect(usageDiscrepancyWarning(run(0, 48, 48, 4))).toBeNull();
    // 60 vs 48 is 20 % off: under a 30 % threshold it is no discrepancy.
    const loose = summarize(
      [0, 1, 2].map((i) =>
        catalogueProcessed(
          { input: 64, output: 60 },
          { usage: { prompt_tokens: 64, completion_tokens: 48, total_tokens: 112, reasoning_tokens: null } },
          { index: i },
        ),
      ),
      { metricOptions: { usage_discrepancy_threshold_pct: 30 } },
    );
    expect(usageDiscrepancyWarning(loose, { usage_discrepancy_threshold_pct: 30 })).toBeNull();
  });
});

describe('OSL mismatch warning and --extra-inputs', () => {
  it('ignore_eos not passed: advises ignore_eos and min_tokens, and the tokenizer fixes', () => {
    const w = oslMismatchWarning(run(6, 60, 48), {}, { temperature: 0 })!;
    expect(w).toMatch(/pass --extra-inputs ignore_eos:true .* or --extra-inputs min_tokens:N/);
    expect(w).toContain('--extra-inputs ignore_eos:true');
    expect(w).toContain('--extra-inputs min_tokens:N');
    expect(w).toContain('--tokenizer server');
    expect(w).toContain('--use-server-token-count');
  });

  it('ignore_eos:true already passed: advises no --extra-inputs, names the tokenizer mismatch and both fixes', () => {
    const w = oslMismatchWarning(run(6, 60, 48), {}, { ignore_eos: true })!;
    expect(w).not.toMatch(/pass --extra-inputs|min_tokens/);
    expect(w).toContain("The run's --extra-inputs already have ignore_eos:true");
    expect(w).toContain('tokenizer mismatch');
    expect(w).toContain("--tokenizer <the model's Hugging Face id or tokenizer.json>");
    expect(w).toContain('--tokenizer server');
    expect(w).toContain('--use-server-token-count');
  });

  it('min_tokens already passed: advises ignore_eos only', () => {
    const w = oslMismatchWarning(run(6, 60, 48), {}, { min_tokens: 48 })!;
    expect(w).toContain('--extra-inputs ignore_eos:true');
    expect(w).not.toContain('min_tokens:N');
  });
});
