// The native decoder (native/wire/sse_decode.h) gives exactly the records the TS adapters give:
// fixture payloads, the fuzz corpus and seeded random streams, through both paths.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatAdapter } from '../../../src/endpoints/chat.js';
import { completionsAdapter } from '../../../src/endpoints/completions.js';
import type { EndpointAdapter } from '../../../src/endpoints/types.js';
import { loadTokenizer } from '../../../src/tokenizer/load.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';
import { NativeArgumentError } from '../../../src/errors.js';
import { SseDecoder } from '../../../src/transport/sse.js';
import { bothPaths, chunked, expectSame, mulberry32, sseBody } from './decode-equivalence.js';

let tk: TextTokenizer;
beforeAll(async () => {
  tk = await loadTokenizer();
});

const ADAPTERS: EndpointAdapter[] = [chatAdapter, completionsAdapter];
const j = JSON.stringify;

// Payloads that exercise each rule of parseChoicesPayload, usageOfPayload and specDecodeOfPayload.
// prettier-ignore
const FIXTURES: string[] = [
  j({ choices: [{ delta: { role: 'assistant', content: '' } }] }),
  j({ choices: [{ delta: { content: 'Hello' } }] }),
  j({ choices: [{ text: ' world' }] }),
  j({ choices: [{ delta: { reasoning_content: 'think' } }] }),
  j({ choices: [{ delta: { reasoning: 'alt think' } }] }),
  j({ choices: [{ delta: { reasoning_content: '', reasoning: 'second' } }] }),
  j({ choices: [{ delta: { reasoning_content: 5, reasoning: 'typed' } }] }),
  j({ choices: [{ delta: null, message: { content: 'from message' } }] }),
  j({ choices: [{ delta: 'x', message: { content: 'never' } }] }),
  j({ choices: [{ delta: [1, 2], text: 'arr delta' }] }),
  j({ choices: [{ message: { content: 'whole' } }] }),
  j({ choices: [{ delta: { content: 'a' } }, { delta: { content: 'b' } }, null, 3, [], { text: 'c' }] }),
  j({ choices: [] }),
  j({ choices: {} }),
  j({ choices: 'nope' }),
  j({ choices: [{ delta: { content: 7 } }] }),
  j({ choices: [{ delta: { content: '中文' } }] }),
  j({ choices: [{ delta: { content: '😀 emoji' } }] }),
  j({ choices: [{ delta: { content: 'esc \n\t"\\/ \u0001' } }] }),
  '{"choices":[{"delta":{"content":"\\ud83d\\ude00 pair \\ud800 lone \\udc00 low \\u00e9"}}]}',
  '{"choices":[{"delta":{"\\u0063ontent":"escaped key"}}]}',
  '{"choices":[{"delta":{"content":"first","content":"dup wins"}}]}',
  '{"choices":[{"delta":{"content":NaN}}]}',
  '{NaN:1,"choices":[{"delta":{"content":"bare key"}}]}',
  '  {"choices":[{"delta":{"content":"ws"}}]}  \t',
  j({ choices: [{ delta: { content: 'u' } }], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }),
  j({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14, completion_tokens_details: { reasoning_tokens: 2 }, prompt_tokens_details: { cached_tokens: 3 } } }),
  '{"choices":[],"usage":{"prompt_tokens":NaN,"completion_tokens":Infinity,"total_tokens":-Infinity}}',
  j({ choices: [], usage: { prompt_tokens: -1, completion_tokens: 1.5, total_tokens: '3' } }),
  j({ choices: [], usage: null }),
  j({ choices: [], usage: 5, usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, thoughtsTokenCount: 1 } }),
  j({ usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, totalTokenCount: 6 } }),
  j({ choices: [], usage: { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 2, cache_creation_input_tokens: 1 } }),
  j({ choices: [{ delta: { content: 's' } }], spec_decode: { draft_tokens: [3, 3], accepted_tokens: [1, 3] } }),
  j({ choices: [{ delta: { content: 's' } }], spec_decode: { draft_tokens: [3], accepted_tokens: [4] } }),
  j({ choices: [], spec_decode: null, metrics: { speculative_decoding: { num_spec_steps: 2, num_accepted_draft_tokens: 3, num_draft_tokens: 6, acceptance_histogram: [0, 1, 1] } } }),
  j({ choices: [], metrics: { speculative_decoding: { num_spec_steps: 2, num_accepted_draft_tokens: 3, num_draft_tokens: 6, acceptance_histogram: { '1': 1, '2': 1 } } } }),
  j({ choices: [], sglext: { spec_tokens_details: { spec_verify_ct: 1, spec_num_correct_drafts: 2, spec_num_proposed_drafts: 3, spec_correct_drafts_histogram: [0, 0, 1] } } }),
  j({ choices: [{ delta: { content: 'q' } }, { sglext: { spec_tokens_details: { spec_verify_ct: 1, spec_num_correct_drafts: 0, spec_num_proposed_drafts: 3, spec_correct_drafts_histogram: [1] } } }] }),
  j({ choices: [], sglext: { spec_tokens_details: { spec_verify_ct: 9, spec_num_correct_drafts: 2, spec_num_proposed_drafts: 3, spec_correct_drafts_histogram: [0, 0, 1] } } }),
  j({ choices: [{ delta: { content: 'f' }, finish_reason: null }] }),
  j({ choices: [{ delta: { content: 'end' }, finish_reason: 'length' }] }),
  j({ choices: [{ text: 'done', finish_reason: 'stop' }] }),
  j({ choices: [{ message: { content: 'whole' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }),
  j({ choices: [{ delta: {}, finish_reason: '' }, { delta: {}, finish_reason: 'tool_calls' }] }),
  j({ choices: [{ delta: {}, finish_reason: 3 }, null, { delta: {}, finish_reason: { why: 'x' } }] }),
  j({ choices: [{ delta: {}, finish_reason: 'content_filter' }, { delta: {}, finish_reason: 'second' }] }),
  j({ choices: [], finish_reason: 'top-level is not read' }),
  '{"choices":[{"delta":{},"finish_reason":"st\u006fp \ud83d\ude00 中"}]}',
  '{"choices":[{"delta":{},"finish_reason":NaN}]}',
  '{"choices":[{"delta":{},"finish_reason":"first","finish_reason":"dup wins"}]}',
  '[DONE]',
];
// Each ends the record (parse_error / sse_error) or is left to the TS adapter.
const TERMINAL: string[] = [
  j({ error: { message: 'overloaded', code: 503 } }),
  j({ error: 'plain string error' }),
  j({ error: { code: 42 } }),
  j({ error: 0 }),
  j({ error: null, choices: [{ delta: { content: 'null error is none' } }] }),
  '{"choices":[{"delta":{"content":"trunc',
  '{"choices":[1,]}',
  '[1,2,3]',
  '"just a string"',
  '42',
  'null',
  '',
  '{"a":NaNx}',
  '{"a":-NaN}',
  '{"a":01}',
  '{"a":1.}',
  '{"a":"\\x"}',
  '{"a":"tab\there"}',
  '[DONE] ',
  '\ufeff{"choices":[]}',
  '{"a":1}{"b":2}',
  '['.repeat(600) + ']'.repeat(600),
  '{"a":'.repeat(600) + '1' + '}'.repeat(600),
];

/** Events the native decoder decided (not left to the TS tail): the comparisons must exercise it. */
let nativeEvents = 0;
/** Responses whose finish reason the native decoder read. */
let finishSeen = 0;

function check(adapter: EndpointAdapter, payloads: (string | Buffer)[], what: string, rand = mulberry32(1)) {
  const body = sseBody(payloads);
  for (const keepPayloads of [false, true]) {
    for (const useServerTokenCount of [false, true]) {
      const pair = bothPaths(adapter, tk, chunked(body, rand), { keepPayloads, useServerTokenCount, perChunkUsage: useServerTokenCount });
      expectSame(pair, `${adapter.type} ${what} keep=${keepPayloads} server=${useServerTokenCount}`);
      const d = pair.nativeRaw.decoded!;
      nativeEvents += d.events - d.tail;
      if (d.finish_reason !== null) finishSeen++;
    }
  }
}

describe('native SSE decode: identical records', () => {
  it('each fixture payload alone, and all of them in one stream', () => {
    for (const a of ADAPTERS) {
      for (const p of [...FIXTURES, ...TERMINAL]) check(a, [p], JSON.stringify(p).slice(0, 80));
      check(a, FIXTURES, 'all fixtures');
      for (const t of TERMINAL)
        check(a, [...FIXTURES.slice(0, 5), t, ...FIXTURES.slice(5)], `terminal ${JSON.stringify(t).slice(0, 40)} mid-stream`);
    }
  });

  it('invalid UTF-8 inside and outside strings', () => {
    const bad = [
      Buffer.concat([
        Buffer.from('{"choices":[{"delta":{"content":"a'),
        Buffer.from([0xe4, 0xb8]),
        Buffer.from('b'),
        Buffer.from([0xff, 0xc0, 0x80, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0xf0, 0x9f, 0x98]),
        Buffer.from('"}}]}'),
      ]),
      Buffer.concat([Buffer.from('{"choices":[{"delta":{"content":"'), Buffer.from([0xe4]), Buffer.from('"}}]}')]),
      Buffer.concat([Buffer.from('{"choices":[{"delta":{"content":"x"}}]'), Buffer.from([0xe4]), Buffer.from('}')]),
    ];
    for (const a of ADAPTERS) {
      for (const b of bad) check(a, [b], 'bad utf-8');
      check(a, bad, 'bad utf-8 stream');
    }
  });

  it('the fuzz corpus, each file as an SSE body', () => {
    const dir = path.join(import.meta.dirname, '../../../fuzz/corpus');
    for (const f of fs.readdirSync(dir)) {
      const bytes = fs.readFileSync(path.join(dir, f));
      const head = bytes.indexOf('\r\n\r\n');
      const body = head >= 0 ? bytes.subarray(head + 4) : bytes;
      for (const a of ADAPTERS) {
        const pair = bothPaths(a, tk, [body]);
        expectSame(pair, `${a.type} corpus ${f}`);
      }
    }
  });

  it('seeded random streams', () => {
    const rand = mulberry32(20261201);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
    const pieces = [
      'word ',
      ' the',
      '中文',
      '日本語テキスト',
      '😀',
      '👩‍👩‍👧',
      '\n',
      '\t"q"\\',
      '\u0000\u001f',
      'é',
      '\ud800',
      '\udc00x',
      '',
      ' ',
    ];
    const text = () => Array.from({ length: Math.floor(rand() * 4) }, () => pick(pieces)).join('');
    const num = () => pick(['3', '0', '12', '-1', '1.5', 'NaN', 'Infinity', '"7"', 'null', '1e3', '123456789012345678']);
    const usage = () =>
      `{"prompt_tokens":${num()},"completion_tokens":${num()},"total_tokens":${num()}${rand() < 0.3 ? `,"completion_tokens_details":{"reasoning_tokens":${num()}}` : ''}}`;
    const choice = (completions: boolean) => {
      const r = rand();
      if (r < 0.05) return pick(['null', '3', '[]', '"s"']);
      const fields: string[] = [];
      const t = j(text());
      if (completions) {
        if (rand() < 0.8) fields.push(`"text":${t}`);
        if (rand() < 0.2) fields.push(`"reasoning_content":${j(text())}`);
      } else {
        const inner: string[] = [];
        if (rand() < 0.2) inner.push('"role":"assistant"');
        if (rand() < 0.7) inner.push(`"content":${rand() < 0.05 ? num() : t}`);
        if (rand() < 0.2) inner.push(`"reasoning_content":${j(text())}`);
        if (rand() < 0.1) inner.push(`"reasoning":${j(text())}`);
        const key = rand() < 0.85 ? 'delta' : 'message';
        if (rand() < 0.05) fields.push('"delta":null');
        fields.push(`"${key}":{${inner.join(',')}}`);
      }
      if (rand() < 0.25) fields.push(`"finish_reason":${pick(['"stop"', '"length"', 'null', '""', '7', '"中"'])}`);
      if (rand() < 0.03)
        fields.push(
          `"sglext":{"spec_tokens_details":{"spec_verify_ct":1,"spec_num_correct_drafts":1,"spec_num_proposed_drafts":2,"spec_correct_drafts_histogram":[0,1]}}`,
        );
      return `{${fields.join(',')}}`;
    };
    const event = (completions: boolean): string => {
      const r = rand();
      if (r < 0.04) return '[DONE]';
      if (r < 0.06) return pick(TERMINAL);
      const parts: string[] = [];
      const n = rand() < 0.1 ? 0 : rand() < 0.9 ? 1 : 2;
      parts.push(`"choices":[${Array.from({ length: n }, () => choice(completions)).join(',')}]`);
      if (rand() < 0.15) parts.push(`"usage":${rand() < 0.1 ? 'null' : usage()}`);
      if (rand() < 0.03) parts.push(`"usageMetadata":{"promptTokenCount":${num()},"candidatesTokenCount":${num()}}`);
      if (rand() < 0.05) parts.push(`"spec_decode":{"draft_tokens":[3,${num()}],"accepted_tokens":[1,2]}`);
      if (rand() < 0.02)
        parts.push(
          `"metrics":{"speculative_decoding":{"num_spec_steps":1,"num_accepted_draft_tokens":2,"num_draft_tokens":3,"acceptance_histogram":[0,0,1]}}`,
        );
      if (rand() < 0.02) parts.push(`"error":${pick(['null', '"boom"', '{"message":"m"}', '{"type":"x"}'])}`);
      const sep = rand() < 0.1 ? ' ,\n ' : ',';
      return `{${parts.join(sep)}}`;
    };
    const before = nativeEvents;
    for (let s = 0; s < 300; s++) {
      const a = pick(ADAPTERS);
      const events = Array.from({ length: 1 + Math.floor(rand() * 12) }, () => event(a === completionsAdapter));
      check(a, events, `random stream ${s}`, rand);
    }
    expect(nativeEvents - before).toBeGreaterThan(3000);
    // The finish reasons compared were not all null.
    expect(finishSeen).toBeGreaterThan(100);
  });
});

// The size tests count characters: a 10 MB text is beyond what the BPE tokenizer is for.
const charCount: TextTokenizer = { name: 'chars', path: '', count: (t) => t.length, encode: () => [], decode: () => '' };

describe('native SSE decode: size', () => {
  it('a 10 MB event', () => {
    const big = 'x'.repeat(5_000_000) + '中'.repeat(1_000_000);
    const payload = j({ choices: [{ delta: { content: big } }] });
    const body = sseBody([payload, '[DONE]']);
    const pieces: Buffer[] = [];
    for (let i = 0; i < body.length; i += 65536) pieces.push(body.subarray(i, i + 65536));
    const pair = bothPaths(chatAdapter, charCount, pieces);
    expect(pair.native.content).toBe(big);
    expect(pair.nativeRaw.event_data).toEqual([]);
    expectSame(pair, '10 MB event');
  });

  it('an event with more looked-up objects than slot tables (65,536) reads alike', () => {
    // Each choice and its delta get a slot table; past 65,536 of them lookups scan the members.
    const choices: string[] = [];
    for (let i = 0; i < 40_000; i++) {
      choices.push(i % 3 === 0 ? `{"delta":{"\\u0063ontent":"e${i % 10}","content":"d"}}` : `{"delta":null,"message":{"content":"m"}}`);
    }
    const payload = `{"choices":[${choices.join(',')}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`;
    const pair = bothPaths(chatAdapter, charCount, [sseBody([payload, '[DONE]'])]);
    expect(pair.nativeRaw.decoded).toMatchObject({ events: 2, tail: 0 });
    expect(pair.native.content).toHaveLength(40_000);
    expectSame(pair, 'many objects');
  });

  it('a 100,000-event response keeps no payload string', () => {
    const events: string[] = [j({ choices: [{ delta: { role: 'assistant', content: '' } }] })];
    for (let i = 0; i < 100_000; i++) events.push(j({ choices: [{ delta: { content: i % 7 === 0 ? '中' : ' t' } }] }));
    events.push(j({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 100_000, total_tokens: 100_002 } }), '[DONE]');
    const body = sseBody(events);
    const pieces: Buffer[] = [];
    for (let i = 0; i < body.length; i += 16384) pieces.push(body.subarray(i, i + 16384));
    const pair = bothPaths(chatAdapter, charCount, pieces, { useServerTokenCount: true });
    expect(pair.nativeRaw.event_data).toEqual([]);
    expect(pair.nativeRaw.decoded?.events).toBe(100_003);
    expect(pair.native.metric_input.token_ns.length).toBe(100_000);
    expectSame(pair, '100k events');
  });
});

describe('SSE `event: error` events', () => {
  const content = j({ choices: [{ delta: { content: 'partial ' } }] });
  const cases: [string, string][] = [
    [j({ error: { message: 'overloaded' } }), 'overloaded'],
    [j({ message: 'overloaded' }), 'overloaded'],
    [j({ choices: [{ delta: { content: 'looks like data' } }] }), j({ choices: [{ delta: { content: 'looks like data' } }] })],
    ['overloaded', 'overloaded'],
    ['', 'error event from the server (no message)'],
  ];
  it.each(cases)('%j is an sse_error on both decode paths, with the server message', (data, message) => {
    for (const a of ADAPTERS) {
      const body = Buffer.concat([sseBody([content]), Buffer.from(`event: error\ndata: ${data}\n\n`), sseBody(['[DONE]'])]);
      for (const keepPayloads of [false, true]) {
        const pair = bothPaths(a, tk, chunked(body, mulberry32(7)), { keepPayloads });
        expectSame(pair, `${a.type} ${data}`);
        expect(pair.native.status).toBe('error');
        expect(pair.native.error).toEqual({ type: 'sse_error', message, http_status: 200 });
        // The native decoder left the error event (and what follows) to TS.
        expect(pair.nativeRaw.decoded).toMatchObject({ events: 3, tail: 2 });
      }
    }
  });

  it('other event types are read as data', () => {
    const body = Buffer.from(`event: message\ndata: ${content}\n\nevent: ping\ndata: ${content}\n\n`);
    const pair = bothPaths(chatAdapter, tk, [body]);
    expectSame(pair, 'typed data events');
    expect(pair.native.status).toBe('ok');
    expect(pair.native.content).toBe('partial partial ');
  });
});

describe('native SSE decode: specs', () => {
  it('reads another API shape from its field paths alone', () => {
    const spec = {
      choices: 'output.items',
      message: '(patch|full)',
      content: ['parts[*].text'],
      reasoning: ['thought'],
      usage: [{ path: 'meta.usage', test: 'object' as const }],
      error: 'fault',
      spec_decode: [],
      finish: ['output.items[*].(patch|full).end', 'done'],
    };
    const body = sseBody([
      j({ output: { items: [{ patch: { parts: [{ kind: 'x' }, { text: 'Hel' }, { text: 'never' }], end: 'early' } }] } }),
      j({
        output: { items: [{ patch: null, full: { parts: [{ text: 'lo' }], thought: 'hm', end: '' } }] },
        meta: { usage: { completion_tokens: 2 } },
        done: 'budget',
      }),
      j({ output: { items: [] } }),
    ]);
    const d = new SseDecoder(spec).decode([body], BigInt64Array.of(5n), false).decoded;
    expect(d).toMatchObject({ events: 3, tail: 0, content: 'Hello', reasoning: 'hm', first_content_ns: 5n, first_choice_ns: 5n });
    // The first finish path with a non-empty string wins within an event; the last event with one over the stream.
    expect(d.finish_reason).toBe('budget');
    expect(Array.from(d.token_ns)).toEqual([5n, 5n]);
    expect(d.usage).toEqual([{ event: 1, source: 0, last: true, first_token: false, text: '{"completion_tokens":2}' }]);
    const fault = new SseDecoder(spec).decode(
      [sseBody([j({ fault: 'x' }), j({ output: { items: [{ full: { parts: [{ text: 'late' }] } }] } })])],
      BigInt64Array.of(1n),
      false,
    );
    expect(fault.decoded).toMatchObject({ events: 2, tail: 2, content: '' });
    expect(fault.data).toHaveLength(2);
  });

  it('a malformed spec is a NativeArgumentError (a TypeError) with code SB_NATIVE_BAD_ARG', () => {
    const good = chatAdapter.decodeSpec;
    for (const bad of [
      null,
      {},
      { ...good, choices: 'a..b' },
      { ...good, message: '(a|' },
      { ...good, content: 'content' },
      { ...good, usage: [{ path: 'u', test: 'maybe' }] },
      { ...good, error: '' },
      { ...good, choices: 'a[0]' },
      { ...good, finish: 'choices[*].finish_reason' },
      { ...good, finish: ['choices[0].finish_reason'] },
      { ...good, finish: undefined },
    ]) {
      let thrown: unknown = null;
      try {
        new SseDecoder(bad as never);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, JSON.stringify(bad)).toBeInstanceOf(NativeArgumentError);
      expect(thrown, JSON.stringify(bad)).toBeInstanceOf(TypeError);
      expect((thrown as { code?: string }).code).toBe('SB_NATIVE_BAD_ARG');
    }
  });
});
