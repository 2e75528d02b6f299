// `servebench profile --print-config`: the effective flags (config file merged under the command
// line) as YAML that --config reads back, with secrets redacted: the API key, every header value but
// the harmless ones, and the credentials of the URL.
import type { Options } from 'yargs';
import { stringify } from 'yaml';
import { isHarmlessHeader, REDACTED } from '../secrets.js';

function redactFlag(name: string, value: unknown): unknown {
  if (name === 'api-key') return REDACTED;
  if (name === 'header' && Array.isArray(value))
    return value.map((h) => {
      const s = String(h);
      const i = s.indexOf(':');
      return i > 0 && !isHarmlessHeader(s.slice(0, i).trim()) ? `${s.slice(0, i)}: ${REDACTED}` : s;
    });
  if (name === 'url' && typeof value === 'string') return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, `$1${REDACTED}@`);
  // A number held as text (--concurrency 4) reads back the same as a YAML number, and reads better.
  if (typeof value === 'string' && /^-?(0|[1-9]\d*)(\.\d+)?$/.test(value) && String(Number(value)) === value) return Number(value);
  return value;
}

/** The flags in `options` order, as a YAML document (a header comment names where they came from). */
export function renderEffectiveConfig(flags: Record<string, unknown>, options: Record<string, Options>, file: string | null): string {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(options)) if (flags[name] !== undefined) out[name] = redactFlag(name, flags[name]);
  const origin = file === null ? 'the command line' : `${file}, overridden by the command line`;
  const body = Object.keys(out).length === 0 ? '{}\n' : stringify(out, { lineWidth: 0 });
  return `# servebench profile: effective config (${origin}); secrets redacted\n${body}`;
}
