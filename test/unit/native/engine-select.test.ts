// --transport selection: what the native engine serves, what auto falls back on, proxy rules.
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/errors.js';
import { bypassesProxy, chooseTransport, nativeUnsupported, proxyFor, resolveTarget } from '../../../src/transport/select.js';

describe('chooseTransport', () => {
  const env = {};
  it('auto picks native for http:// and https://, and undici for the rest, saying why', () => {
    expect(chooseTransport('auto', 'http://127.0.0.1:8000', env)).toEqual({ name: 'native', reason: null });
    expect(chooseTransport('auto', 'https://api.example.com/v1', env)).toEqual({ name: 'native', reason: null });
    expect(chooseTransport('auto', 'ftp://api.example.com/v1', env)).toEqual({
      name: 'undici',
      reason: expect.stringMatching(/ftp:\/\//),
    });
    expect(chooseTransport('auto', 'http://10.0.0.1', { HTTP_PROXY: 'http://p:1' })).toMatchObject({
      name: 'undici',
      reason: 'a proxy (HTTP_PROXY is set)',
    });
  });

  it('undici is always undici', () => {
    expect(chooseTransport('undici', 'http://127.0.0.1:8000', env)).toEqual({ name: 'undici', reason: null });
  });

  it('native refuses other schemes, proxies and credentials with one line naming the way out', () => {
    for (const [url, e, re] of [
      ['ftp://x', {}, /ftp:\/\/ URLs/],
      ['http://x', { http_proxy: 'http://p:1' }, /http_proxy is set/],
      ['http://x', { ALL_PROXY: 'socks5://p:1' }, /ALL_PROXY is set/],
      ['http://u:pw@x', {}, /credentials in the URL/],
    ] as const) {
      let err: unknown;
      try {
        chooseTransport('native', url, e);
      } catch (x) {
        err = x;
      }
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as Error).message).toMatch(re);
      expect((err as Error).message).toMatch(/; use --transport undici$/);
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('an https proxy variable does not apply to an http:// target', () => {
    expect(nativeUnsupported('http://10.0.0.1:8000', { HTTPS_PROXY: 'http://p:1' })).toBeNull();
    expect(proxyFor(new URL('https://a.example'), { HTTPS_PROXY: 'http://p:1' })).toBe('HTTPS_PROXY');
  });
});

describe('NO_PROXY', () => {
  it('matches hosts, suffixes, ports, IPv6 and *', () => {
    expect(bypassesProxy('127.0.0.1', '8000', '127.0.0.1')).toBe(true);
    expect(bypassesProxy('api.internal.example', '80', '.example')).toBe(true);
    expect(bypassesProxy('api.internal.example', '80', '*.internal.example')).toBe(true);
    expect(bypassesProxy('example', '80', 'example')).toBe(true);
    expect(bypassesProxy('badexample', '80', 'example')).toBe(false);
    expect(bypassesProxy('localhost', '8000', 'localhost:9000')).toBe(false);
    expect(bypassesProxy('localhost', '8000', 'other, localhost:8000')).toBe(true);
    expect(bypassesProxy('[::1]', '80', '::1')).toBe(true);
    expect(bypassesProxy('[::1]', '80', '[::1]:80')).toBe(true);
    expect(bypassesProxy('anything', '1', '*')).toBe(true);
    expect(bypassesProxy('anything', '1', undefined)).toBe(false);
    expect(proxyFor(new URL('http://127.0.0.1:8000'), { HTTP_PROXY: 'http://p:1', NO_PROXY: '127.0.0.1' })).toBeNull();
  });
});

describe('resolveTarget', () => {
  it('keeps numeric addresses and resolves names to a numeric address', async () => {
    expect(await resolveTarget('http://127.0.0.1:8000')).toBe('127.0.0.1');
    expect(await resolveTarget('http://[::1]:8000')).toBe('::1');
    expect(['127.0.0.1', '::1']).toContain(await resolveTarget('http://localhost:9', 200));
  });
});
