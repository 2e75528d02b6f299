// sonnet: vLLM's SonnetDataset over a local text file (vLLM ships benchmarks/sonnet.txt): each
// prompt is "Pick as many lines as you can from these poem lines:\n", the file's first lines as a
// shared prefix (about 200 tokens), then lines drawn at random with replacement up to about --isl
// tokens (vLLM's default 550); max_tokens is --osl (vLLM's default 150 when --osl is not given).
// vLLM measures the base prompt through the model's chat template; here it is the bare text's count
// (servebench applies no chat template), so prompts come out a few tokens longer than vLLM's.

import { InvalidFileError } from '../errors.js';
import { samplerFor, type LoadContext } from './context.js';
import { Rng } from '../model/rng.js';
import { IndexedSource } from './source.js';
import type { Conversation } from './types.js';

export const SONNET_BASE_PROMPT = 'Pick as many lines as you can from these poem lines:\n';
export const SONNET_DEFAULTS = { input_len: 550, prefix_len: 200, output_len: 150 } as const;

export interface SonnetOptions {
  inputLen: number;
  outputLen: number;
  /** How many distinct prompts to make (vLLM makes one per request). */
  count: number;
}

export function loadSonnet(ctx: LoadContext, text: string, opts: SonnetOptions): IndexedSource {
  // Lines keep their newline, as Python's readlines() does.
  const lines = text.split(/(?<=\n)/).filter((l) => l !== '');
  if (lines.length === 0) throw new InvalidFileError(`${ctx.file}: the sonnet file has no lines`);
  const tok = ctx.tokenizer;
  const avg = lines.reduce((n, l) => n + tok.count(l), 0) / lines.length;
  const base = tok.count(SONNET_BASE_PROMPT);
  if (opts.inputLen <= base) throw new InvalidFileError(`${ctx.file}: --isl must be above the base prompt's ${base} tokens for sonnet`);
  const numInput = Math.round((opts.inputLen - base) / avg);
  const numPrefix = Math.min(numInput, Math.max(Math.round((SONNET_DEFAULTS.prefix_len - base) / avg), 0));
  const prefix = lines.slice(0, numPrefix).join('');
  const rng = new Rng(ctx.seed).fork('sonnet');
  const prompts: string[] = [];
  // vLLM keeps a draw only when it fits in input_len; the number of lines is fixed, so a bounded
  // number of redraws finds one unless the file's lines vary wildly.
  for (let tries = 0; prompts.length < opts.count && tries < opts.count * 100; tries++) {
    let extra = '';
    for (let k = 0; k < numInput - numPrefix; k++) extra += lines[rng.int(0, lines.length - 1)];
    const prompt = `${SONNET_BASE_PROMPT}${prefix}${extra}`;
    if (tok.count(prompt) <= opts.inputLen) prompts.push(prompt);
  }
  if (prompts.length === 0) throw new InvalidFileError(`${ctx.file}: no sonnet prompt fits in --isl ${opts.inputLen} tokens`);
  return new IndexedSource({
    kind: 'sonnet',
    hasTimestamps: false,
    singleTurn: true,
    sampler: samplerFor(ctx, prompts.length),
    cache: true,
    build: (i) => {
      const conv: Conversation = {
        id: `sonnet/${i}`,
        turns: [{ prompt: prompts[i], isl: tok.count(prompts[i]), max_tokens: opts.outputLen, timestamp_ms: null, delay_ms: null }],
      };
      if (ctx.systemPrompt !== null) conv.system_prompt = ctx.systemPrompt;
      return conv;
    },
  });
}
