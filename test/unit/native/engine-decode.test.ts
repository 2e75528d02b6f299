// The native decode inside both transports: the engine's I/O threads (native/engine/engine_request_state.cc) and
// the undici transport's one call per response give the records the TS adapter gives.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { RecordProcessor } from '../../../src/records/process.js';
import type { RawRecord } from '../../../src/model/raw-record.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { NativeTransport } from '../../../src/transport/native.js';
import type { Transport } from '../../../src/transport/types.js';
import { UndiciTransport } from '../../../src/transport/undici.js';
import { comparable } from '../records/decode-equivalence.js';
import { credit, request, scriptedServer, sseResponse, type ScriptedServer } from './engine-helpers.js';

let tk: TextTokenizer;
beforeAll(async () => {
  tk = await loadTokenizer();
});

const j = JSON.stringify;
const STREAMS: string[][] = [
  [
    j({ choices: [{ delta: { role: 'assistant', content: '' } }] }),
    j({ choices: [{ delta: { content: 'Hi 中文 😀' } }] }),
    j({ choices: [{ delta: { reasoning_content: 'r' } }] }),
    j({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }),
  ],
  [
    j({ choices: [{ delta: { content: 'a' } }] }),
    j({ error: { message: 'overloaded' } }),
    j({ choices: [{ delta: { content: 'after' } }] }),
  ],
  [j({ choices: [{ delta: { content: 'a' } }] }), '{"choices":[{"delta":{"content":"trunc'],
  [
    j({ choices: [{ delta: { content: 'x' } }], spec_decode: { draft_tokens: [2], accepted_tokens: [1] } }),
    '{"choices":[],"usage":{"prompt_tokens":NaN,"completion_tokens":4}}',
  ],
  Array.from({ length: 500 }, (_, i) => j({ choices: [{ delta: { content: ` t${i}` } }] })),
];

let server: ScriptedServer | null = null;
let transport: Transport | null = null;
afterEach(async () => {
  await transport?.close();
  await server?.close();
  transport = null;
  server = null;
});

async function serve(): Promise<ScriptedServer> {
  server = await scriptedServer((socket, req) => {
    // Sent in pieces, so events straddle reads.
    const bytes = Buffer.from(sseResponse(STREAMS[req.index % STREAMS.length]));
    const cut = Math.floor(bytes.length / 3);
    socket.write(bytes.subarray(0, cut));
    setTimeout(() => socket.write(bytes.subarray(cut)), 2);
  });
  return server;
}

function process(raw: RawRecord) {
  return new RecordProcessor({ adapter: chatAdapter, tokenizer: tk, useServerTokenCount: false }).process(raw);
}

async function each(make: (url: string, keepPayloads: boolean) => Transport, keepPayloads: boolean): Promise<RawRecord[]> {
  const s = await serve();
  transport = make(s.url, keepPayloads);
  const out: RawRecord[] = [];
  for (let i = 0; i < STREAMS.length; i++) out.push(await transport.send(credit(), request()));
  await transport.close();
  transport = null;
  await s.close();
  server = null;
  return out;
}

const MAKERS: [string, (url: string, keepPayloads: boolean) => Transport][] = [
  [
    'native',
    (url, keepPayloads) =>
      new NativeTransport({
        baseUrl: url,
        address: '127.0.0.1',
        connections: 1,
        requestTimeoutMs: 10_000,
        threads: 1,
        decode: { spec: chatAdapter.decodeSpec, keepPayloads },
      }),
  ],
  [
    'undici',
    (url, keepPayloads) =>
      new UndiciTransport({
        baseUrl: url,
        connections: 1,
        requestTimeoutMs: 10_000,
        decode: { spec: chatAdapter.decodeSpec, keepPayloads },
      }),
  ],
];

describe.each(MAKERS)('%s transport with the native decode', (_name, make) => {
  it('keepPayloads: the decoded record equals the TS adapter reading of the same payloads and stamps', async () => {
    const raws = await each(make, true);
    for (const [i, raw] of raws.entries()) {
      expect(raw.decoded, `stream ${i}`).toBeTruthy();
      expect(raw.event_data.length).toBe(STREAMS[i].length + 1);
      const viaTs = process({ ...raw, decoded: undefined });
      expect(comparable(process(raw)), `stream ${i}`).toEqual(comparable(viaTs));
    }
    expect(process(raws[1]).error?.type).toBe('sse_error');
    expect(process(raws[2]).error?.type).toBe('parse_error');
  });

  it('without keepPayloads only the undecided tail comes back as strings', async () => {
    const raws = await each(make, false);
    // From the first event left to the TS adapter (an error, invalid JSON) to the end, [DONE] included.
    const kept = [0, 3, 2, 0, 0];
    for (const [i, raw] of raws.entries()) {
      expect(raw.event_data.length, `stream ${i}`).toBe(kept[i]);
      expect(raw.decoded?.events).toBe(STREAMS[i].length + 1);
    }
    const content = raws.map((r) => process(r).content);
    expect(content[0]).toBe('Hi 中文 😀');
    expect(content[4]).toBe(Array.from({ length: 500 }, (_, i) => ` t${i}`).join(''));
    expect(process(raws[1]).error).toMatchObject({ type: 'sse_error', message: 'overloaded' });
    expect(process(raws[2]).error?.message).toMatch(/^invalid JSON in response: /);
  });
});
