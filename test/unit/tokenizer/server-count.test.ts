// Output counts through the server's tokenize endpoint, per batch: a sample of outputs is checked
// against the server's usage; once it agrees the usage is used and no more outputs are sent, one
// disagreement sends every output; a text the server does not count fails its record only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countWords } from '../../../src/mock/words.js';
import { ServerBatchCounter } from '../../../src/tokenizer/server-count.js';
import type { TokenizeSpec } from '../../../src/tokenizer/types.js';

let server: Server;
let spec: TokenizeSpec;
let calls = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    calls++;
    let text = '';
    req.on('data', (b: Buffer) => (text += b.toString()));
    req.on('end', () => {
      const prompt = (JSON.parse(text) as { prompt: string }).prompt;
      if (prompt.includes('BROKEN')) return res.writeHead(500).end('{}');
      const n = countWords(prompt);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tokens: new Array(n).fill(0), count: n }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  spec = { api: 'vllm', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tokenize`, model: 'm', headers: {} };
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const item = (output: string, completion: number | null) => ({
  texts: { input: null, output, reasoning: null },
  usage: { completion_tokens: completion, reasoning_tokens: null },
});

describe('ServerBatchCounter', () => {
  it('agreeing usage: a sample of 8 goes to the endpoint, then the usage is used', async () => {
    calls = 0;
    const c = new ServerBatchCounter(spec);
    const items = Array.from({ length: 50 }, (_, i) => item(` w${i} a b`, 3));
    const count = await c.countBatch(items);
    expect(items.map((x) => count(x.texts.output))).toEqual(new Array(50).fill(3));
    expect(calls).toBe(8);
    expect(c.source).toBe('usage');
    const later = await c.countBatch([item(' x y', 2)]);
    expect(later(' x y')).toBe(2);
    expect(calls).toBe(8);
  });

  it('disagreeing usage: every output is counted by the endpoint', async () => {
    calls = 0;
    const c = new ServerBatchCounter(spec);
    const items = Array.from({ length: 20 }, (_, i) => item(` w${i} a b c`, 9));
    const count = await c.countBatch(items);
    expect(items.map((x) => count(x.texts.output))).toEqual(new Array(20).fill(4));
    expect(c.source).toBe('endpoint');
    expect(calls).toBe(20);
  });

  it('a text the server does not count throws for that text only', async () => {
    const c = new ServerBatchCounter(spec);
    const count = await c.countBatch([item(' fine text', null), item(' BROKEN text', null)]);
    expect(count(' fine text')).toBe(2);
    expect(() => count(' BROKEN text')).toThrow(/did not count this text/);
  });
});
