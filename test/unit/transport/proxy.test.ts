import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/errors.js';
import { proxySetting } from '../../../src/transport/select.js';

const url = new URL('http://10.0.0.5:8000/v1');

describe('the proxy the undici transport uses', () => {
  it('HTTP_PROXY (then ALL_PROXY) for http://, HTTPS_PROXY for https://', () => {
    expect(proxySetting(url, { HTTP_PROXY: 'http://p:3128' })).toEqual({ variable: 'HTTP_PROXY', uri: 'http://p:3128/' });
    expect(proxySetting(url, { ALL_PROXY: 'socks5://p:1080' })).toEqual({ variable: 'ALL_PROXY', uri: 'socks5://p:1080' });
    expect(proxySetting(url, { HTTPS_PROXY: 'http://p:3128' })).toBeNull();
    expect(proxySetting(new URL('https://h/v1'), { HTTPS_PROXY: 'http://p:3128' })?.variable).toBe('HTTPS_PROXY');
  });

  it('a value without a scheme is an http:// proxy (curl)', () => {
    expect(proxySetting(url, { http_proxy: 'p:3128' })).toEqual({ variable: 'http_proxy', uri: 'http://p:3128/' });
  });

  it('NO_PROXY exempts the host', () => {
    expect(proxySetting(url, { HTTP_PROXY: 'http://p:3128', NO_PROXY: '10.0.0.5' })).toBeNull();
    expect(proxySetting(url, { HTTP_PROXY: 'http://p:3128', NO_PROXY: '*' })).toBeNull();
    expect(proxySetting(url, { HTTP_PROXY: 'http://p:3128', NO_PROXY: '10.0.0.5:9000' })).not.toBeNull();
  });

  it('a bad value is bad input, named by its variable and never echoed', () => {
    for (const bad of ['ftp://user:hunter2@p', '::hunter2', 'http://']) {
      let thrown: unknown = null;
      try {
        proxySetting(url, { HTTP_PROXY: bad });
      } catch (err) {
        thrown = err;
      }
      expect(thrown, bad).toBeInstanceOf(InvalidArgumentError);
      expect((thrown as Error).message).toMatch(/^HTTP_PROXY: /);
      expect((thrown as Error).message).not.toContain('hunter2');
    }
  });
});
