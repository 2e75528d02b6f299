import { afterEach, describe, expect, it } from 'vitest';
import { authHeaders, authWarnings } from '../../src/endpoints/auth.js';
import { environmentSecrets, redactConfig, secretsOf } from '../../src/config/redact.js';
import { buildRunConfig, parseUrl } from '../../src/config/validate.js';
import { recordLine } from '../../src/export/records.js';
import { stringifyWithBigInt } from '../../src/export/format.js';
import { REDACTED, Scrubber, addSecrets, clearSecrets, knownSecrets, scrub } from '../../src/secrets.js';

afterEach(() => clearSecrets());

describe('Scrubber', () => {
  it('replaces a secret as given, JSON-escaped (once and twice) and percent-encoded', () => {
    const secret = 'k"ey\\with/odd&chars';
    const s = new Scrubber([secret]);
    const once = JSON.stringify(secret).slice(1, -1);
    const twice = JSON.stringify(once).slice(1, -1);
    for (const form of [secret, once, twice, encodeURIComponent(secret)]) {
      expect(s.text(`before ${form} after`)).toBe(`before ${REDACTED} after`);
    }
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    expect(new Scrubber(['abcdef', 'abcdefghij']).text('x abcdefghij y')).toBe(`x ${REDACTED} y`);
  });

  it('leaves values too short to search for alone, and text without a secret unchanged', () => {
    const s = new Scrubber(['t1', 'secret-value']);
    expect(s.secrets).toEqual(['secret-value']);
    expect(s.text('t1 and nothing else')).toBe('t1 and nothing else');
  });

  it('the process-wide scrubber: add is idempotent, knownSecrets hands the list on', () => {
    addSecrets(['sk-first-key', null, undefined]);
    addSecrets(['sk-first-key', 'hdr-value-2']);
    expect(knownSecrets().sort()).toEqual(['hdr-value-2', 'sk-first-key']);
    expect(scrub('sk-first-key/hdr-value-2')).toBe(`${REDACTED}/${REDACTED}`);
  });

  it('stringifyWithBigInt and recordLine scrub what they write', () => {
    addSecrets(['sk-echoed-key']);
    expect(stringifyWithBigInt({ 'sk-echoed-key': ['sk-echoed-key'], n: 5n })).toBe(`{"${REDACTED}":["${REDACTED}"],"n":5}`);
    const line = recordLine(
      {
        raw: {
          credit: {
            x_request_id: 'r1',
            index: 0,
            phase: 'profiling',
            credit_issued_ns: 1n,
            targeted_start_ns: null,
            turn: { max_tokens: 4 },
          },
          start_ns: 2n,
          end_ns: 3n,
          http_status: 500,
          bytes_sent: 1,
          bytes_received: 1,
          streaming: true,
          event_ns: [3n],
          event_data: ['{"echo":"Bearer sk-echoed-key"}'],
          body: null,
        },
        metric_input: { last_content_ns: null },
        status: 'error',
        error: { type: 'http_5xx', message: 'HTTP 500: {"key":"sk-echoed-key"}', http_status: 500 },
        finish_reason: 'echo sk-echoed-key',
        metrics: new Map(),
      },
      'raw',
      () => undefined,
    );
    expect(line).not.toContain('sk-echoed-key');
    const parsed = JSON.parse(line);
    expect(parsed.payloads).toEqual([`{"echo":"Bearer ${REDACTED}"}`]);
    expect(parsed.error.message).toBe(`HTTP 500: {"key":"${REDACTED}"}`);
    expect(parsed.finish_reason).toBe(`echo ${REDACTED}`);
  });
});

describe('URL credentials', () => {
  it('are stripped from the URL and percent-decoded', () => {
    expect(parseUrl('http://us%40er:p%3Ass@host:8000/base/')).toEqual({
      url: 'http://host:8000/base',
      credentials: { username: 'us@er', password: 'p:ss' },
    });
    expect(parseUrl('https://host/v')).toEqual({ url: 'https://host/v', credentials: null });
  });

  it('a bad URL is quoted without its credentials', () => {
    expect(() => parseUrl('http://user:hunter2-pw@bad host')).toThrow(/^--url: not a URL: "http:\/\/bad host"$/);
  });

  it('are sent as Basic auth, redacted from the config and scrubbed in every written form', () => {
    const cfg = buildRunConfig({ url: 'http://alice:s3cret-pass@127.0.0.1:9/' }, {});
    const basic = Buffer.from('alice:s3cret-pass').toString('base64');
    expect(cfg.url).toBe('http://127.0.0.1:9');
    expect(authHeaders(cfg).authorization).toBe(`Basic ${basic}`);
    const saved = JSON.stringify(redactConfig(cfg));
    expect(saved).not.toContain('s3cret-pass');
    expect(saved).not.toContain('alice');
    expect(secretsOf(cfg)).toEqual(expect.arrayContaining(['alice:s3cret-pass', basic, 's3cret-pass']));
  });
});

describe('Authorization: precedence and warnings', () => {
  it('--api-key beats URL credentials beats -H Authorization, each override warned about once', () => {
    const all = buildRunConfig(
      { url: 'http://u:url-password@h', 'api-key': 'sk-the-key', header: ['Authorization: Bearer hdr-token'] },
      {},
    );
    expect(authHeaders(all).authorization).toBe('Bearer sk-the-key');
    expect(authWarnings(all)).toEqual([
      '--api-key (or $OPENAI_API_KEY) overrides the credentials in --url: they are not sent',
      '--api-key (or $OPENAI_API_KEY) overrides -H Authorization: that header is not sent',
    ]);
    const env = buildRunConfig({ header: ['Authorization: Bearer hdr-token'] }, { OPENAI_API_KEY: 'sk-env-key' });
    expect(authWarnings(env)).toHaveLength(1);
    const url = buildRunConfig({ url: 'http://u:url-password@h', header: ['Authorization: Bearer hdr-token'] }, {});
    expect(authHeaders(url).authorization).toMatch(/^Basic /);
    expect(authWarnings(url)).toEqual(['the credentials in --url override -H Authorization: that header is not sent']);
    expect(authWarnings(buildRunConfig({ header: ['Authorization: Bearer hdr-token'] }, {}))).toEqual([]);
  });

  it('a -H Basic value is scrubbed as given, as its token, and decoded', () => {
    const token = Buffer.from('bob:header-pass').toString('base64');
    const cfg = buildRunConfig({ header: [`Authorization: Basic ${token}`, 'X-Auth: x-auth-secret', 'Accept: text/plain'] }, {});
    expect(secretsOf(cfg)).toEqual(expect.arrayContaining([`Basic ${token}`, token, 'bob:header-pass', 'header-pass', 'x-auth-secret']));
    expect(secretsOf(cfg)).not.toContain('text/plain');
  });
});

it("a proxy URL's credentials in the environment are secrets too", () => {
  const basic = Buffer.from('proxy-user:proxy-pass-9').toString('base64');
  expect(
    environmentSecrets({ HTTPS_PROXY: 'http://proxy-user:proxy-pass-9@proxy:3128', HTTP_PROXY: 'http://proxy:3128', NO_PROXY: 'x' }),
  ).toEqual(['proxy-user:proxy-pass-9', basic, 'proxy-pass-9']);
});
