import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/errors.js';
import { buildRunConfig, parseExtraInputs, parseHeaders, resolveArtifactDir } from '../../../src/config/validate.js';
import { redactConfig } from '../../../src/config/redact.js';

describe('buildRunConfig', () => {
  it('applies defaults with no flags (built-in mock)', () => {
    const c = buildRunConfig({}, {});
    expect(c.url).toBeNull();
    expect(c.model).toBe('mock-model');
    expect(c.endpoint).toBe('/v1/chat/completions');
    expect(c.streaming).toBe(true);
    expect(c.request_count).toBe(100);
    expect(c.concurrency).toBe(8);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('uses the completions path for --endpoint-type completions', () => {
    expect(buildRunConfig({ 'endpoint-type': 'completions' }, {}).endpoint).toBe('/v1/completions');
  });

  it.each([
    [{ concurrency: 0 }, /--concurrency: must be at least 1/],
    [{ concurrency: 1.5 }, /--concurrency: expected an integer/],
    [{ concurrency: Number.NaN }, /--concurrency: expected an integer, got NaN/],
    [{ 'request-count': 0 }, /--request-count/],
    [{ 'benchmark-duration': 0 }, /--benchmark-duration: must be greater than 0/],
    [{ 'request-timeout-seconds': -1 }, /--request-timeout-seconds/],
    [{ isl: 0 }, /--isl/],
    [{ 'osl-stddev': -2 }, /--osl-stddev/],
    [{ url: 'ftp://x' }, /--url: only http/],
    [{ url: 'not a url' }, /--url: not a URL/],
    [{ 'endpoint-type': 'foo' }, /--endpoint-type: expected one of chat, completions, /],
    [{ header: ['NoColon'] }, /--header: expected NAME:VALUE/],
    [{ 'extra-inputs': ['novalue'] }, /--extra-inputs: expected KEY:VALUE/],
    [{ url: 'http://x', 'mock-ttft-ms': 5 }, /only applies to the built-in mock/],
  ])('rejects %j', (flags, re) => {
    expect(() => buildRunConfig(flags as never, {})).toThrow(InvalidArgumentError);
    expect(() => buildRunConfig(flags as never, {})).toThrow(re);
  });

  it('a duration alone leaves the request count unbounded', () => {
    const c = buildRunConfig({ 'benchmark-duration': 5 }, {});
    expect(c.request_count).toBeNull();
    expect(c.benchmark_duration_s).toBe(5);
  });

  it('reads the API key from OPENAI_API_KEY and the flag wins', () => {
    expect(buildRunConfig({}, { OPENAI_API_KEY: 'sk-env' }).api_key).toBe('sk-env');
    expect(buildRunConfig({ 'api-key': 'sk-flag' }, { OPENAI_API_KEY: 'sk-env' }).api_key).toBe('sk-flag');
  });

  it('names the artifact dir after model, endpoint and mode', () => {
    const c = buildRunConfig({ url: 'http://h:1', model: 'org/Model 7B', concurrency: 4 }, {});
    const dir = resolveArtifactDir(c, new Date(2026, 0, 2, 3, 4, 5));
    expect(dir).toBe('artifacts/org_Model_7B-chat-concurrency4-20260102-030405');
    expect(resolveArtifactDir(buildRunConfig({ 'artifact-dir': '/tmp/x' }, {}), new Date())).toBe('/tmp/x');
  });
});

describe('flag parsers', () => {
  it('parses headers, lower-casing names and keeping colons in values', () => {
    expect(parseHeaders(['X-Trace: a:b', 'Accept:text/plain'])).toEqual({ 'x-trace': 'a:b', accept: 'text/plain' });
  });
  it('types extra inputs as JSON when they parse', () => {
    expect(parseExtraInputs(['ignore_eos:true', 'min_tokens:5', 'stop:["a"]', 'name:bob', 'x:{"a":1}'])).toEqual({
      ignore_eos: true,
      min_tokens: 5,
      stop: ['a'],
      name: 'bob',
      x: { a: 1 },
    });
  });
});

describe('redaction', () => {
  it('removes the API key and every header value but the harmless ones from the config', () => {
    const c = buildRunConfig(
      { 'api-key': 'sk-secret-123', header: ['Authorization:Bearer zzz', 'X-Tenant:t1', 'User-Agent:my-agent/1'] },
      {},
    );
    const r = JSON.stringify(redactConfig(c));
    expect(r).not.toContain('sk-secret-123');
    expect(r).not.toContain('zzz');
    expect(r).not.toContain('t1');
    expect(r).toContain('my-agent/1');
  });
});
