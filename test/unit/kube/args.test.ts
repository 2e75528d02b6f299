// kube's own flags are taken out of the command line; every profile token is kept, verbatim and in order.
import { describe, expect, it } from 'vitest';
import { profileArgs } from '../../../src/kube/args.js';

const OWN = new Map([
  ['shards', false],
  ['image', false],
  ['start-at', false],
  ['allow-partial', true],
]);

describe('profileArgs', () => {
  it.each<[string[], string[]]>([
    [
      ['kube', '--shards', '4', '--image', 'i', '--url', 'http://h', '-H', 'a: b'],
      ['--url', 'http://h', '-H', 'a: b'],
    ],
    [
      ['--url', 'http://h', 'kube', '--shards=4', '--concurrency', '8', '--image=i'],
      ['--url', 'http://h', '--concurrency', '8'],
    ],
    [
      ['kube', '--startAt', '2030-01-01T00:00:00Z', '--model', 'kube'],
      ['--model', 'kube'],
    ],
    [
      ['kube', '--allow-partial', '--streaming', '--no-allow-partial', '--goodput', 'a:1', 'b:2'],
      ['--streaming', '--goodput', 'a:1', 'b:2'],
    ],
    [['kube', '--allow-partial', 'true', '--no-streaming'], ['--no-streaming']],
    [
      ['kube', '--extra-inputs', '--shards-x', '--image', 'i'],
      ['--extra-inputs', '--shards-x'],
    ],
    [
      ['kube', '--shards', '2', '--', '--image', 'x'],
      ['--', '--image', 'x'],
    ],
  ])('%j → %j', (tokens, expected) => {
    expect(profileArgs(tokens, 'kube', OWN)).toEqual(expected);
  });
});
