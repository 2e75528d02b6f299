// `--config run.yaml`: every `profile` flag as a YAML key (its long name; a list for a repeatable
// flag), merged under the command line (a flag given on the command line wins).
//
// Why not yargs' own .config(): it takes a plain object, so an unknown key or a bad value could not
// be named with its file:line, and it would coerce YAML's typed values as if they were argv
// strings. Here the file is read with `yaml` (its node positions give the lines), each value is
// checked against its flag's yargs type and choices, and the merged flags then go through the same
// buildRunConfig as a command line; a value error it raises for a key that came from the file is
// re-said with that key's file:line (locateFlagError).
import fs from 'node:fs';
import type { Options } from 'yargs';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { InvalidArgumentError, InvalidFileError, describeSystemError } from '../errors.js';

/** String flags whose value may be a comma-separated list: a YAML sequence is joined with commas. */
const COMMA_LIST_FLAGS = new Set(['concurrency', 'request-rate', 'stages']);

/** A config file's values, by canonical flag name, and the line each key is on. */
export interface ConfigFileValues {
  file: string;
  values: Record<string, unknown>;
  lines: Record<string, number>;
}

/** Long names (canonical and long aliases) → canonical flag name. */
function longNames(options: Record<string, Options>): Map<string, string> {
  const names = new Map<string, string>();
  for (const [name, o] of Object.entries(options)) {
    names.set(name, name);
    const aliases: readonly string[] = o.alias === undefined ? [] : Array.isArray(o.alias) ? (o.alias as string[]) : [o.alias as string];
    for (const a of aliases) if (a.length > 1) names.set(a, name);
  }
  return names;
}

/** Edit distance, for a "did you mean" on an unknown key. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

function suggestion(key: string, names: Iterable<string>): string {
  let best: string | null = null;
  let bestD = Infinity;
  for (const n of names) {
    const d = distance(key, n);
    if (d < bestD) [best, bestD] = [n, d];
  }
  return best !== null && bestD <= Math.max(2, Math.floor(key.length / 4)) ? ` (did you mean ${best}?)` : '';
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/** A YAML value as the flag's yargs type would hold it; throws a message (no position) when it does not fit. */
function flagValue(name: string, o: Options, node: Node | null): unknown {
  const scalar = (n: Node | null): unknown => {
    if (n === null || !isScalar(n) || n.value === null) throw new Error('has no value');
    return n.value;
  };
  const text = (n: Node | null): string => {
    const v = scalar(n);
    if (typeof v !== 'string' && typeof v !== 'number') throw new Error(`expected a text or a number, got ${show(v)}`);
    return String(v);
  };
  let value: unknown;
  if (o.array) {
    // server-metrics: false is --no-server-metrics.
    if (name === 'server-metrics' && isScalar(node) && node.value === false) return false;
    value = isSeq(node) ? node.items.map((item) => text(item as Node | null)) : [text(node)];
  } else if (o.type === 'boolean') {
    value = scalar(node);
    if (typeof value !== 'boolean') throw new Error(`expected true or false, got ${show(value)}`);
  } else if (o.type === 'number') {
    value = scalar(node);
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`expected a number, got ${show(value)}`);
  } else if (isSeq(node) && COMMA_LIST_FLAGS.has(name)) {
    value = node.items.map((item) => text(item as Node | null)).join(',');
  } else {
    value = text(node);
  }
  const choices = o.choices as readonly unknown[] | undefined;
  if (choices !== undefined && !choices.includes(value)) throw new Error(`expected one of ${choices.join(', ')}, got ${show(value)}`);
  return value;
}

/** Reads and checks a config file against `options` (the flags of the command); throws InvalidFileError with file:line. */
export function readConfigFile(file: string, options: Record<string, Options>): ConfigFileValues {
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new InvalidFileError(`--config: cannot read ${file}: ${describeSystemError(err)}`);
  }
  const lc = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lc, prettyErrors: false });
  const lineOf = (offset: number | undefined): number => (offset === undefined ? 1 : lc.linePos(offset).line);
  const fail = (offset: number | undefined, msg: string): never => {
    throw new InvalidFileError(`${file}:${lineOf(offset)}: ${msg}`);
  };
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    fail(e.pos[0], `not valid YAML: ${e.message.split('\n')[0]}`);
  }
  const out: ConfigFileValues = { file, values: {}, lines: {} };
  if (doc.contents === null) return out; // an empty file: no settings
  if (!isMap(doc.contents)) fail(doc.contents.range?.[0], 'expected a mapping of flag names to values');
  const names = longNames(options);
  for (const pair of (doc.contents as { items: { key: unknown; value: unknown }[] }).items) {
    const keyNode = pair.key as Node | null;
    const at = keyNode?.range?.[0];
    if (!isScalar(keyNode) || typeof keyNode.value !== 'string') fail(at, 'a key must be a flag name');
    const key = (keyNode as { value: string }).value;
    const name = names.get(key);
    if (name === undefined) fail(at, `unknown key "${key}"${suggestion(key, names.keys())}`);
    if (name! in out.values) fail(at, `"${key}" sets ${name} a second time`);
    try {
      out.values[name!] = flagValue(name!, options[name!], pair.value as Node | null);
    } catch (err) {
      fail(at, `${key}: ${(err as Error).message}`);
    }
    out.lines[name!] = lineOf(at);
  }
  return out;
}

/**
 * The flags as the command sees them: the file's values, overridden by each flag given on the
 * command line (yargs sets only those; its alias and camelCase copies are left out).
 */
export function mergeFlags(
  argv: Record<string, unknown>,
  options: Record<string, Options>,
  file: ConfigFileValues | null,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(file?.values ?? {}) };
  for (const name of Object.keys(options)) if (argv[name] !== undefined) merged[name] = argv[name];
  return merged;
}

/**
 * A flag error (`--name: …`, InvalidArgumentError) about a key the file set and the command line did
 * not override, re-said as `file:line: name: …`; any other error is returned as it is.
 */
export function locateFlagError(err: unknown, argv: Record<string, unknown>, file: ConfigFileValues | null): unknown {
  if (file === null || !(err instanceof InvalidArgumentError)) return err;
  const m = /^--([a-z0-9-]+)(:?)(.*)$/s.exec(err.message);
  if (!m || !(m[1] in file.lines) || argv[m[1]] !== undefined) return err;
  return new InvalidFileError(`${file.file}:${file.lines[m[1]]}: ${m[1]}${m[2]}${m[3]}`, { cause: err });
}
