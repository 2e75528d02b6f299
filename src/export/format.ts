// Serialisation and number formatting shared by the exporters.
import { scrub } from '../secrets.js';

/**
 * JSON.stringify that writes bigints as bare integer literals, exactly (no quotes, no rounding).
 * Otherwise it follows JSON.stringify: toJSON is honoured; undefined, functions and symbols are
 * dropped from objects and become null in arrays; non-finite numbers become null; cycles throw.
 * Every string and key is scrubbed of the process's secrets (src/secrets.ts): it writes artifacts.
 */
export function stringifyWithBigInt(value: unknown, indent?: number): string {
  const out = write(value, '', indent ? ' '.repeat(indent) : '', new Set());
  return out ?? 'null';
}

function write(value: unknown, pad: string, step: string, seen: Set<object>): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON();
    if (typeof value === 'bigint') return value.toString();
  }
  if (value === null || typeof value !== 'object') {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
    return JSON.stringify(typeof value === 'string' ? scrub(value) : value);
  }
  if (seen.has(value)) throw new TypeError('stringifyWithBigInt: circular structure');
  seen.add(value);
  const inner = pad + step;
  const sep = step ? `,\n${inner}` : ',';
  let out: string;
  if (Array.isArray(value)) {
    const items = value.map((v) => write(v, inner, step, seen) ?? 'null');
    out = items.length === 0 ? '[]' : step ? `[\n${inner}${items.join(sep)}\n${pad}]` : `[${items.join(sep)}]`;
  } else {
    const items: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      const s = write(v, inner, step, seen);
      if (s !== undefined) items.push(`${JSON.stringify(scrub(k))}:${step ? ' ' : ''}${s}`);
    }
    out = items.length === 0 ? '{}' : step ? `{\n${inner}${items.join(sep)}\n${pad}}` : `{${items.join(sep)}}`;
  }
  seen.delete(value);
  return out;
}

/** Fixed decimals with comma thousands separators, independent of the host locale: 12345.678 → "12,345.68". */
export function formatNumber(value: number, decimals = 2): string {
  if (!Number.isFinite(value)) return String(value);
  const fixed = Math.abs(value).toFixed(decimals);
  const [int, frac] = fixed.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  // "-0.00" reads as a bug; a value that rounds to zero prints unsigned.
  const negative = value < 0 && Number(fixed) !== 0;
  return `${negative ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}
