// What every command's flags share: a flag that takes a value must be given one, and yargs' own
// complaints become one line naming the flag (exit code 2, main.ts).
import type { Options } from 'yargs';

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
