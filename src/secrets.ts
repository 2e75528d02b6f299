// The secrets of this process (API key, header values, URL credentials) and the one scrubber every
// artifact writer and log line goes through. config/redact.ts says which values are secret; run/
// registers them before anything is written; record worker threads register the same list at start.
// Free text (logs, CSV, the console) is scrubbed as text; JSON artifacts are scrubbed string by
// string, so a secret that happens to look like a number never breaks their syntax.

export const REDACTED = '<redacted>';

/** Header names whose values are written as given: they describe the request, never authorise it. */
export const HARMLESS_HEADERS: readonly string[] = [
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'connection',
  'content-type',
  'user-agent',
];

export function isHarmlessHeader(name: string): boolean {
  return HARMLESS_HEADERS.includes(name.toLowerCase());
}

/**
 * Values shorter than this are not searched for in free text: they would blank ordinary words and
 * numbers. The config still redacts them (config/redact.ts).
 */
export const MIN_SCRUB_LENGTH = 6;

/** The forms a secret may take once written: as given, JSON-escaped (once, or twice inside a payload), percent-encoded. */
function variants(secret: string): string[] {
  const once = JSON.stringify(secret).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  return [...new Set([secret, once, twice, encodeURIComponent(secret)])];
}

/** Replaces every known secret, in each of its written forms, with <redacted>. */
export class Scrubber {
  /** The secrets as given (what a worker thread needs to build the same scrubber). */
  readonly secrets: readonly string[];
  private readonly pattern: RegExp | null;

  constructor(secrets: Iterable<string | null | undefined>) {
    const kept = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= MIN_SCRUB_LENGTH))];
    this.secrets = kept;
    // Longest first, so a secret that contains another is replaced whole.
    const needles = [...new Set(kept.flatMap(variants))].sort((a, b) => b.length - a.length);
    this.pattern = needles.length === 0 ? null : new RegExp(needles.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g');
  }

  text(s: string): string {
    if (this.pattern === null || s.length < MIN_SCRUB_LENGTH) return s;
    this.pattern.lastIndex = 0;
    return this.pattern.test(s) ? s.replace(this.pattern, REDACTED) : s;
  }
}

let current = new Scrubber([]);

/** Adds secrets to this thread's scrubber (idempotent; values too short to search for are ignored). */
export function addSecrets(list: Iterable<string | null | undefined>): void {
  const next = new Scrubber([...current.secrets, ...list]);
  if (next.secrets.length !== current.secrets.length) current = next;
}

/** The secrets registered in this thread, to hand to a worker thread. */
export function knownSecrets(): string[] {
  return [...current.secrets];
}

/** Forgets every secret (tests). */
export function clearSecrets(): void {
  current = new Scrubber([]);
}

/** Free text with every known secret replaced. */
export function scrub(text: string): string {
  return current.text(text);
}
