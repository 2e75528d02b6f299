import { describe, expect, it } from 'vitest';
import { endpointUrl, requestTarget } from '../../../src/transport/url.js';

describe('request targets under a base URL', () => {
  it.each([
    ['http://h:1', '/v1/models', '/v1/models'],
    ['http://h:1/', '/v1/models', '/v1/models'],
    ['http://h:1/prefix', '/v1/chat/completions', '/prefix/v1/chat/completions'],
    ['http://h:1/prefix/', '/v1/chat/completions', '/prefix/v1/chat/completions'],
    // The base URL's query is kept, after the joined path.
    ['http://h:1/prefix?q=1', '/v1/models', '/prefix/v1/models?q=1'],
    ['http://h:1/prefix/?q=1&r=a%20b', '/v1/models', '/prefix/v1/models?q=1&r=a%20b'],
    ['http://h:1?api-version=2024', '/v1/completions', '/v1/completions?api-version=2024'],
    // An endpoint with its own query: both kept.
    ['http://h:1/p?q=1', '/v1/x?y=2', '/p/v1/x?y=2&q=1'],
    ['http://h:1/p#frag', '/v1/x', '/p/v1/x'],
  ])('%s + %s → %s', (base, path, target) => {
    expect(requestTarget(base, path)).toBe(target);
  });

  it('an absolute URL leaves credentials out', () => {
    expect(endpointUrl('http://u:secret@h:1/p?q=1', '/v1/models')).toBe('http://h:1/p/v1/models?q=1');
  });
});
