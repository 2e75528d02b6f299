// Which tokenize endpoint a server offers, found by probing; each answer shape counted right.
// Small in-process servers answer as vLLM, SGLang, llama.cpp and TGI do (a llama.cpp server
// answers a body without "content" with no tokens; vLLM and TGI refuse a body without their field).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenizerLoadError } from '../../../src/errors.js';
import { countWords, wordTokens } from '../../../src/mock/words.js';
import { detectTokenizeEndpoint, ServerTokenCounter } from '../../../src/tokenizer/server.js';

type Answer = (path: string, body: Record<string, unknown>) => { status: number; json: unknown };

const servers: Server[] = [];
let seen: IncomingHttpHeaders[] = [];

async function serve(answer: Answer): Promise<string> {
  const server = createServer((req, res) => {
    seen.push(req.headers);
    let text = '';
    req.on('data', (b: Buffer) => (text += b.toString()));
    req.on('end', () => {
      const { status, json } = answer(req.url ?? '/', JSON.parse(text || '{}') as Record<string, unknown>);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  seen = [];
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const ids = (t: string) => wordTokens(t).map((_, i) => i);
const notFound = { status: 404, json: { error: 'not found' } };

const vllm: Answer = (p, b) =>
  p === '/tokenize' && typeof b.prompt === 'string'
    ? { status: 200, json: { tokens: ids(b.prompt), count: countWords(b.prompt) } }
    : notFound;
const sglang: Answer = (p, b) =>
  p === '/v1/tokenize' && typeof b.prompt === 'string'
    ? { status: 200, json: { tokens: ids(b.prompt), count: countWords(b.prompt) } }
    : notFound;
const llamacpp: Answer = (p, b) =>
  p === '/tokenize' ? { status: 200, json: { tokens: typeof b.content === 'string' ? ids(b.content) : [] } } : notFound;
const tgi: Answer = (p, b) =>
  p === '/tokenize' && typeof b.inputs === 'string'
    ? {
        status: 200,
        // A BOS the server adds anyway, marked special: not part of the text.
        json: [
          { id: 1, text: '<s>', start: 0, stop: 0, special: true },
          ...wordTokens(b.inputs).map((t, i) => ({ id: i + 2, text: t, start: 0, stop: 1, special: false })),
        ],
      }
    : { status: 422, json: { error: 'inputs missing' } };

describe('detectTokenizeEndpoint', () => {
  it.each([
    ['vllm', vllm, '/tokenize'],
    ['sglang', sglang, '/v1/tokenize'],
    ['llama.cpp', llamacpp, '/tokenize'],
    ['tgi', tgi, '/tokenize'],
  ] as const)('finds %s and counts its answers', async (api, answer, path) => {
    const url = await serve(answer);
    const spec = await detectTokenizeEndpoint(url, 'm', {});
    expect(spec.api).toBe(api);
    expect(spec.url).toBe(url + path);
    const counter = new ServerTokenCounter(spec);
    expect(await counter.countAll(['Hello, world', 'a b c d', ''])).toEqual([3, 4, 0]);
  });

  it('credentials in the URL become a basic authorization header and leave the URL', async () => {
    const url = await serve(vllm);
    const spec = await detectTokenizeEndpoint(url.replace('http://', 'http://user:s3cret@'), 'm', { 'x-extra': '1' });
    expect(spec.url).not.toContain('s3cret');
    expect(seen[0].authorization).toBe(`Basic ${Buffer.from('user:s3cret').toString('base64')}`);
    expect(seen[0]['x-extra']).toBe('1');
  });

  it('none offered: TokenizerLoadError (exit 2), one line naming what was tried and the fixes', async () => {
    const url = await serve(() => notFound);
    const err = await detectTokenizeEndpoint(url, 'm', { authorization: 'Bearer k3y' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TokenizerLoadError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/^--tokenizer server: http:\/\/127\.0\.0\.1:\d+ offers no tokenize endpoint/);
    expect(msg).toContain('--use-server-token-count');
    expect(msg).not.toContain('k3y');
    expect(msg).not.toContain('\n');
  });
});
