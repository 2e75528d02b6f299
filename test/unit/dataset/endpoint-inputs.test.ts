// The texts an endpoint type sends beside the prompt: an embeddings batch, ranking passages.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../../src/config/validate.js';
import { createConversationSource } from '../../../src/dataset/index.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';

let tk: TextTokenizer;
beforeAll(async () => {
  tk = await loadTokenizer();
});

describe('endpoint inputs', () => {
  it('embeddings: --batch-size-text prompts per request, the ISL their sum', async () => {
    const cfg = buildRunConfig({ 'endpoint-type': 'embeddings', 'batch-size-text': 5, isl: 12 }, {});
    const src = await createConversationSource(cfg, tk);
    const a = src.next().turns[0];
    const b = src.next().turns[0];
    expect(a.inputs).toHaveLength(4);
    expect(a.isl).toBe(60);
    for (const t of [a.prompt, ...(a.inputs ?? [])]) expect(tk.count(t)).toBe(12);
    // Each request takes fresh prompts.
    expect(new Set([a.prompt, ...(a.inputs ?? []), b.prompt, ...(b.inputs ?? [])]).size).toBe(10);
  });

  it('rankings: the query and --rankings-passages passages of --rankings-passage-length tokens, seeded', async () => {
    const flags = { 'endpoint-type': 'rankings', 'rankings-passages': 3, 'rankings-passage-length': 7, isl: 9 };
    const turn = (await createConversationSource(buildRunConfig(flags, {}), tk)).next().turns[0];
    expect(turn.inputs).toHaveLength(3);
    for (const p of turn.inputs ?? []) expect(tk.count(p)).toBe(7);
    expect(tk.count(turn.prompt)).toBe(9);
    expect(turn.isl).toBe(9 + 3 * 7);
    const again = (await createConversationSource(buildRunConfig(flags, {}), tk)).next().turns[0];
    expect(again.inputs).toEqual(turn.inputs);
  });

  it('rankings: a single_turn line\'s own "passages", counted into the ISL; embeddings drops them, chat ignores them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-passages-'));
    const file = path.join(dir, 'q.jsonl');
    const passages = ['the cat sat on the mat', 'a dog barked twice', 'rain in spain'];
    fs.writeFileSync(file, JSON.stringify({ text: 'which one is about a cat?', passages }) + '\n');
    const flags = { 'input-file': file, 'custom-dataset-type': 'single_turn' };
    const turn = (await createConversationSource(buildRunConfig({ ...flags, 'endpoint-type': 'rankings' }, {}), tk)).next().turns[0];
    expect(turn.inputs).toEqual(passages);
    expect(turn.isl).toBe(tk.count('which one is about a cat?') + passages.reduce((n, p) => n + tk.count(p), 0));
    for (const type of ['embeddings', 'chat']) {
      const t = (await createConversationSource(buildRunConfig({ ...flags, 'endpoint-type': type }, {}), tk)).next().turns[0];
      expect(type === 'chat' ? t.inputs : (t.inputs ?? [])).toEqual(type === 'chat' ? passages : []);
      expect(t.isl).toBe(tk.count('which one is about a cat?'));
    }
  });

  it('a "passages" field that is not a list of strings is the dataset\'s error, naming the line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-passages-'));
    const file = path.join(dir, 'q.jsonl');
    fs.writeFileSync(file, JSON.stringify({ text: 'q', passages: 'not a list' }) + '\n');
    const cfg = buildRunConfig({ 'input-file': file, 'custom-dataset-type': 'single_turn', 'endpoint-type': 'rankings' }, {});
    await expect(createConversationSource(cfg, tk).then((s) => s.next())).rejects.toThrow(
      /q\.jsonl:1: .*"passages" must be a non-empty list/,
    );
  });

  it('chat turns carry no inputs', async () => {
    const turn = (await createConversationSource(buildRunConfig({}, {}), tk)).next().turns[0];
    expect(turn.inputs).toBeUndefined();
  });
});
