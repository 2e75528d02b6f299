// The field paths of a DecodeSpec (src/model/decoded.ts) walked in TS, exactly as the native decoder
// walks them (native/wire/sse_decode.cc Walk): `key`, `key[*]` (each element, the first match wins),
// `(a|b)` (the first non-null key). The template adapter reads payloads with it, so a payload the
// native decoder reads and one it leaves to TS give the same result.

type Step = { kind: 'key'; key: string } | { kind: 'first'; keys: string[] } | { kind: 'each' };
export type FieldPath = Step[];

const NAME = /^[^.()|[\]]+$/;

/** Parses a path; null when it is not one (an empty path is the value itself). */
export function parseFieldPath(text: string): FieldPath | null {
  if (text === '') return [];
  const out: FieldPath = [];
  for (const part of text.split('.')) {
    let p = part;
    let each = 0;
    while (p.endsWith('[*]')) {
      p = p.slice(0, -3);
      each++;
    }
    if (p.startsWith('(') && p.endsWith(')')) {
      const keys = p.slice(1, -1).split('|');
      if (keys.length < 2 || !keys.every((k) => NAME.test(k))) return null;
      out.push({ kind: 'first', keys });
    } else if (p !== '' || each === 0) {
      if (!NAME.test(p)) return null;
      out.push({ kind: 'key', key: p });
    }
    for (let k = 0; k < each; k++) out.push({ kind: 'each' });
  }
  return out;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Calls visit for each value the path reaches, in order, until one returns true. */
export function walk(v: unknown, path: FieldPath, visit: (x: unknown) => boolean, step = 0): boolean {
  if (step === path.length) return visit(v);
  const s = path[step];
  if (s.kind === 'key') return isObj(v) && Object.hasOwn(v, s.key) && walk(v[s.key], path, visit, step + 1);
  if (s.kind === 'first') {
    if (!isObj(v)) return false;
    for (const k of s.keys) if (Object.hasOwn(v, k) && v[k] !== null) return walk(v[k], path, visit, step + 1);
    return false;
  }
  if (!Array.isArray(v)) return false;
  for (const x of v) if (walk(x, path, visit, step + 1)) return true;
  return false;
}

/** The first value reached, or undefined. */
export function first(v: unknown, path: FieldPath, test: (x: unknown) => boolean = () => true): unknown {
  let found: unknown = undefined;
  walk(v, path, (x) => {
    if (!test(x)) return false;
    found = x;
    return true;
  });
  return found;
}

/** The first non-empty string reached, or ''. */
export function firstText(v: unknown, path: FieldPath): string {
  const t = first(v, path, (x) => typeof x === 'string' && x !== '');
  return typeof t === 'string' ? t : '';
}

/** The first non-empty string of the first path that reaches one (native AppendText), or null. */
export function firstTextOf(v: unknown, paths: readonly FieldPath[]): string | null {
  for (const p of paths) {
    const t = firstText(v, p);
    if (t !== '') return t;
  }
  return null;
}
