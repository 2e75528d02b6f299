// --seq-dist "ISL,OSL:prob;…": a mixture of (input length, output length) pairs, each with an
// optional stddev ("ISL|SD,OSL|SD:prob"). Probabilities must sum to 1 within 1e-6.

import { MAX_PROMPT_TOKENS } from '../tokenizer/synthesize.js';
import { InvalidArgumentError } from '../errors.js';
import type { Rng } from '../model/rng.js';

export interface SeqDistEntry {
  isl: number;
  isl_stddev: number;
  osl: number;
  osl_stddev: number;
  prob: number;
}

const SUM_TOLERANCE = 1e-6;

function bad(msg: string): never {
  throw new InvalidArgumentError(`--seq-dist: ${msg}`);
}

function length(part: string, what: string, entry: string): { mean: number; stddev: number } {
  const [m, sd, extra] = part.split('|').map((s) => s.trim());
  if (extra !== undefined) bad(`${what} in ${JSON.stringify(entry)} has more than one "|"`);
  const mean = Number(m);
  if (m === '' || !Number.isInteger(mean) || mean < 1)
    bad(`${what} in ${JSON.stringify(entry)} must be a positive integer, got ${JSON.stringify(m)}`);
  if (what === 'ISL' && mean > MAX_PROMPT_TOKENS)
    bad(`ISL in ${JSON.stringify(entry)} must be at most ${MAX_PROMPT_TOKENS} tokens, got ${mean}`);
  const stddev = sd === undefined ? 0 : Number(sd);
  if (sd === '' || !Number.isFinite(stddev) || stddev < 0)
    bad(`${what} stddev in ${JSON.stringify(entry)} must be a number >= 0, got ${JSON.stringify(sd)}`);
  return { mean, stddev };
}

export function parseSeqDist(spec: string): SeqDistEntry[] {
  const entries = spec
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (entries.length === 0) bad('expected "ISL,OSL:prob;…", got an empty value');
  const out = entries.map((entry) => {
    const colon = entry.lastIndexOf(':');
    if (colon < 0) bad(`expected ISL,OSL:prob, got ${JSON.stringify(entry)}`);
    const pair = entry.slice(0, colon).split(',');
    if (pair.length !== 2) bad(`expected ISL,OSL:prob, got ${JSON.stringify(entry)}`);
    const isl = length(pair[0], 'ISL', entry);
    const osl = length(pair[1], 'OSL', entry);
    const p = entry.slice(colon + 1).trim();
    const prob = Number(p);
    if (p === '' || !Number.isFinite(prob) || prob <= 0 || prob > 1)
      bad(`probability in ${JSON.stringify(entry)} must be in (0, 1], got ${JSON.stringify(p)}`);
    return { isl: isl.mean, isl_stddev: isl.stddev, osl: osl.mean, osl_stddev: osl.stddev, prob };
  });
  const sum = out.reduce((a, e) => a + e.prob, 0);
  if (Math.abs(sum - 1) > SUM_TOLERANCE) bad(`probabilities must sum to 1, got ${sum}`);
  return out;
}

/** Picks an entry with its probability (inverse CDF; the last entry absorbs rounding). */
export function pickSeqDist(entries: readonly SeqDistEntry[], rng: Rng): SeqDistEntry {
  const u = rng.next();
  let acc = 0;
  for (const e of entries) {
    acc += e.prob;
    if (u < acc) return e;
  }
  return entries[entries.length - 1];
}
