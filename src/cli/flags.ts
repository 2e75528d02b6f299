// What every command's flags share: a flag that takes a value must be given one, and yargs' own
// complaints become one line naming the flag (exit code 2, main.ts).
import type { Options } from 'yargs';
import { badFlag } from '../errors.js';

/** The same options, each non-boolean one marked requiresArg (`--request-count` alone is bad input, not the default). */
export function valueFlags(options: Record<string, Options>): Record<string, Options> {
  const out: Record<string, Options> = {};
  for (const [name, o] of Object.entries(options)) out[name] = o.type === 'boolean' || o.count ? o : { ...o, requiresArg: true };
  return out;
}

const flag = (name: string): string => (name.length === 1 ? `-${name}` : `--${name}`);

/** yargs' message for a bad command line, as one line that names the flag and, for a choice, the choices. */
export function flagMessage(msg: string): string {
  const choice = /Argument: ([^,]+), Given: (.*), Choices: (.*)$/m.exec(msg);
  if (/^Invalid values?:/.test(msg) && choice) {
    const choices = choice[3].split(/,\s*/).map((c) => c.replace(/^"(.*)"$/, '$1'));
    return `${flag(choice[1].trim())}: expected one of ${choices.join(', ')}, got ${choice[2].trim()}`;
  }
  const missing = /^Not enough arguments following: (.+)$/.exec(msg.trim());
  if (missing) return `${flag(missing[1].trim())}: expects a value`;
  return msg.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * A boolean flag given a value (`--name=v`, `--no-name=v`) takes only true or false: yargs reads any
 * other value, `1` and `yes` included, as false, which would turn an option off without a word.
 * `raw` is the command line; parsing stops at `--`.
 */
export function checkBooleanValues(raw: readonly string[], booleans: readonly string[]): void {
  const known = new Set(booleans);
  for (const arg of raw) {
    if (arg === '--') return;
    const m = /^--(?:no-)?([^=]+)=(.*)$/s.exec(arg);
    if (m && known.has(m[1]) && m[2] !== 'true' && m[2] !== 'false') badFlag(m[1], `expected true or false, got ${JSON.stringify(m[2])}`);
  }
}
