// A boolean flag given `=value` takes only true or false; anything else is one line naming the flag.
import { describe, expect, it } from 'vitest';
import { checkBooleanValues } from '../../../src/cli/flags.js';
import { InvalidArgumentError } from '../../../src/errors.js';

const BOOLS = ['preconnect', 'streaming', 'k'];

describe('checkBooleanValues', () => {
  it('takes bare flags, their negations and =true / =false', () => {
    for (const argv of [['--preconnect'], ['--no-preconnect'], ['--preconnect=true'], ['--streaming=false'], ['--no-streaming=true']]) {
      expect(() => checkBooleanValues(argv, BOOLS)).not.toThrow();
    }
  });

  it.each([
    [['--preconnect=maybe'], /^--preconnect: expected true or false, got "maybe"$/],
    [['--no-streaming=1'], /^--streaming: expected true or false, got "1"$/],
    [['--preconnect='], /^--preconnect: expected true or false, got ""$/],
    [['--preconnect=TRUE'], /^--preconnect: expected true or false, got "TRUE"$/],
  ])('refuses %j', (argv, msg) => {
    const run = () => checkBooleanValues(argv, BOOLS);
    expect(run).toThrow(InvalidArgumentError);
    expect(run).toThrow(msg);
  });

  it('leaves non-boolean flags and everything after -- alone', () => {
    expect(() => checkBooleanValues(['--url=http://x', '--concurrency=4'], BOOLS)).not.toThrow();
    expect(() => checkBooleanValues(['--', '--preconnect=maybe'], BOOLS)).not.toThrow();
  });
});
