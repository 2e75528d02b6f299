// Python servers serialise float('nan') / float('inf') as the bare tokens NaN, Infinity, -Infinity,
// which are not JSON. Rather than losing the whole response to a parse error, those tokens (outside
// strings) are turned into the strings "NaN", "Infinity", "-Infinity": the field then has the wrong
// type, gets no value and a one-time warning, and the rest of the payload is kept.

const TOKENS = ['-Infinity', 'Infinity', 'NaN'] as const;

/** `text` with bare NaN/Infinity tokens quoted, or null when it has none (nothing to retry). */
export function quoteNonFiniteTokens(text: string): string | null {
  let out = '';
  let last = 0;
  let changed = false;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      continue;
    }
    if (c !== 0x4e /* N */ && c !== 0x49 /* I */ && c !== 0x2d /* - */) continue;
    const tok = TOKENS.find((t) => text.startsWith(t, i));
    if (!tok) continue;
    out += text.slice(last, i) + `"${tok}"`;
    i += tok.length - 1;
    last = i + 1;
    changed = true;
  }
  return changed ? out + text.slice(last) : null;
}
