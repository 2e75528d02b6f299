// The profile flags `servebench kube` refuses before any manifest is printed (through the CLI: test/integration/kube.test.ts).
import { describe, expect, it } from 'vitest';
import { checkProfileFlags } from '../../../src/cli/kube.js';
import { InvalidArgumentError } from '../../../src/errors.js';

describe('checkProfileFlags', () => {
  it.each<[Record<string, unknown>, RegExp]>([
    [{ 'artifact-dir': 'out' }, /^--artifact-dir: is set by kube/],
    [{ 'shard-index': 1 }, /^--shard-index: is set by the Indexed Job/],
    [{ 'shard-count': 3 }, /^--shard-count: is set by kube from --shards/],
    [{ 'api-key': 'sk-1' }, /^--api-key: would be written into the manifest in clear; put it in a Secret and pass --api-key-secret/],
    [{ url: 'http://user:pw@h:8000' }, /^--url: credentials in the URL would be written into the manifest/],
    [{ url: 'http://h:8000', concurrency: '1,4,16' }, /^--shards: a sharded run is one profiling run/],
    [{ url: 'http://h:8000', 'num-profile-runs': 3 }, /^--shards: a sharded run is one profiling run/],
    [{ url: 'http://h:8000', isl: 0 }, /^--isl: /],
  ])('%j', (argv, message) => {
    expect(() => checkProfileFlags(argv)).toThrow(InvalidArgumentError);
    expect(() => checkProfileFlags(argv)).toThrow(message);
  });

  it('takes a plain run', () => {
    expect(() => checkProfileFlags({ url: 'http://h:8000', concurrency: '64', 'request-count': 1000, streaming: true })).not.toThrow();
  });
});
