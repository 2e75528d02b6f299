// --custom-dataset-type sonnet: vLLM's SonnetDataset over a local text file. Expected values from
// vLLM's code: the base prompt, then the file's first lines as a prefix of about 200 tokens, then
// lines drawn with replacement; a prompt is kept only within input_len (550 default); max_tokens 150.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SONNET_BASE_PROMPT } from '../../../src/dataset/sonnet.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { tmpDir } from '../../helpers/cli.js';
import { loadSource, take } from './helpers.js';

let tok: TextTokenizer;
let file: string;
const LINES = Array.from({ length: 60 }, (_, i) => `Line ${i} of the sonnet, where summer's lease hath all too short a date,\n`);

beforeAll(async () => {
  tok = await loadTokenizer();
  file = path.join(tmpDir(), 'sonnet.txt');
  fs.writeFileSync(file, LINES.join(''));
});

describe('sonnet', () => {
  it("vLLM's defaults: base prompt, the first lines as a shared prefix, within 550 tokens, max_tokens 150", async () => {
    const { source } = await loadSource(tok, { 'input-file': file, 'custom-dataset-type': 'sonnet', 'request-count': 4 });
    const convs = take(source, 4);
    const avg = LINES.reduce((n, l) => n + tok.count(l), 0) / LINES.length;
    const prefixLines = Math.round((200 - tok.count(SONNET_BASE_PROMPT)) / avg);
    const prefix = SONNET_BASE_PROMPT + LINES.slice(0, prefixLines).join('');
    const inputLines = Math.round((550 - tok.count(SONNET_BASE_PROMPT)) / avg);
    for (const c of convs) {
      const t = c.turns[0];
      expect(t.prompt.startsWith(prefix)).toBe(true);
      expect(t.prompt.slice(SONNET_BASE_PROMPT.length).split('\n').length - 1).toBe(inputLines);
      expect(t.isl).toBeLessThanOrEqual(550);
      expect(t.max_tokens).toBe(150);
    }
    expect(new Set(convs.map((c) => c.turns[0].prompt)).size).toBeGreaterThan(1);
  });

  it('--isl and --osl set the lengths (vLLM: --sonnet-input-len, --sonnet-output-len)', async () => {
    const { source } = await loadSource(tok, {
      'input-file': file,
      'custom-dataset-type': 'sonnet',
      isl: 300,
      osl: 20,
      'request-count': 2,
    });
    for (const c of take(source, 2)) {
      expect(c.turns[0].isl).toBeLessThanOrEqual(300);
      expect(c.turns[0].isl).toBeGreaterThan(200);
      expect(c.turns[0].max_tokens).toBe(20);
    }
  });
});
