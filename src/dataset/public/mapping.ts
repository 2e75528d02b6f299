// How one row of a public dataset becomes the turns of a conversation, per the entry's mapping
// (registry.ts). Each rule follows the peer loader its entry cites; a row that loader skips is
// skipped here too (null), and a row whose columns are missing altogether is the dataset's error.

import { InvalidArgumentError } from '../../errors.js';
import { dataUrl } from '../media-synth.js';
import { vllmPair } from '../sharegpt.js';
import type { RowMapping } from './registry.js';
import type { Row } from './rows.js';

/** One turn as read from a row, before its tokens are counted. */
export interface RowTurn {
  /** The prompt text; null when the prompt is synthesized to `synthTokens` (BurstGPT). */
  prompt: string | null;
  synthTokens?: number;
  /** The recorded reply whose token length sizes max_tokens (ShareGPT). */
  reply?: string;
  /** max_tokens given by the row itself (BurstGPT's Response tokens, --hf-output-len-column). */
  maxTokens?: number;
  images?: string[];
}

/** The mapping of `--hf-dataset`: the prompt column, and optionally an output-length column. */
export interface ColumnMapping {
  kind: 'columns';
  /** null until resolved against the first row (resolvePromptColumn). */
  prompt: string | null;
  outputLen: string | null;
}

/** The prompt columns looked for, in order, when --hf-prompt-column is not given (GuideLLM guesses the same way). */
export const PROMPT_COLUMNS = ['prompt', 'text', 'question', 'instruction', 'problem', 'input', 'query', 'content'] as const;

/** The mapping with its prompt column named: the given one, else the first of PROMPT_COLUMNS in `first`. */
export function resolvePromptColumn(m: ColumnMapping, first: Row, where: string): ColumnMapping {
  if (m.prompt !== null) return m;
  const found = PROMPT_COLUMNS.find((c) => c in first);
  if (found === undefined)
    throw new InvalidArgumentError(
      `--hf-prompt-column: ${where} has none of the usual prompt columns (${PROMPT_COLUMNS.join(', ')}); name one of its columns: ${Object.keys(first).join(', ')}`,
    );
  return { ...m, prompt: found };
}

export type AnyMapping = RowMapping | ColumnMapping;

/** Columns a mapping reads, checked against the first row (a missing one is exit 2, naming the columns there are). */
export function requiredColumns(m: AnyMapping): string[] {
  switch (m.kind) {
    case 'sharegpt':
      return ['conversations'];
    case 'prompt':
      return [m.column];
    case 'first-message':
      return [m.column];
    case 'speed-bench':
      return ['turns', 'category'];
    case 'spec-bench':
      return ['turns'];
    case 'mmvu':
      return ['question'];
    case 'burstgpt':
      return ['Model', 'Request tokens', 'Response tokens'];
    case 'columns':
      return [m.prompt ?? PROMPT_COLUMNS[0], ...(m.outputLen === null ? [] : [m.outputLen])];
  }
}

export function checkColumns(m: AnyMapping, first: Row, where: string, flagOf: (column: string) => string | null): void {
  for (const c of requiredColumns(m)) {
    if (c in first) continue;
    const flag = flagOf(c);
    const msg = `column "${c}" is not in ${where}; its columns: ${Object.keys(first).join(', ')}`;
    throw new InvalidArgumentError(flag === null ? msg : `--${flag}: ${msg}`);
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The MIME type of image bytes, from their magic numbers (HF's Image feature keeps the original file). */
function imageMime(b: Uint8Array): string {
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8) return 'image/jpeg';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return 'image/gif';
  if (b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46) return 'image/webp';
  return 'application/octet-stream';
}

function toBytes(v: unknown): Uint8Array | null {
  if (v instanceof Uint8Array) return v;
  // hyparquet may hand a byte array over as an index-keyed object.
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && '0' in v)
    return Uint8Array.from(Object.values(v as Record<string, number>));
  return null;
}

/** One image value: a URL string, or HF's Image struct {bytes, path}. */
function imageOf(v: unknown): string | null {
  if (typeof v === 'string') return /^(https?:|data:)/i.test(v) ? v : null;
  if (typeof v !== 'object' || v === null) return null;
  const bytes = toBytes((v as Row).bytes);
  if (bytes !== null && bytes.length > 0) return dataUrl(Buffer.from(bytes), imageMime(bytes));
  const url = str((v as Row).path);
  return url !== null && /^https?:/i.test(url) ? url : null;
}

/** The first image of a column (a single image or a list), as AIPerf's _extract_images takes it. */
export function firstImage(v: unknown): string[] | undefined {
  const list = Array.isArray(v) ? v : [v];
  for (const x of list) {
    const url = imageOf(x);
    if (url !== null) return [url];
  }
  return undefined;
}

function withImage(turn: RowTurn, row: Row, column: string | undefined): RowTurn {
  if (column === undefined) return turn;
  const images = firstImage(row[column]);
  return images ? { ...turn, images } : turn;
}

/** The text of a conversation's first message: VisionArena wraps each turn in a list; LLaVA's `<image>` tokens go. */
function firstMessage(messages: unknown, key: string): string | null {
  if (!Array.isArray(messages) || messages.length === 0) return null;
  let m: unknown = messages[0];
  if (Array.isArray(m)) m = m[0];
  if (typeof m !== 'object' || m === null) return null;
  const v = str((m as Row)[key]);
  if (v === null) return null;
  const text = v.replaceAll('<image>', '').trim();
  return text === '' ? null : text;
}

/** SPEED-Bench publishes this in place of prompts it may not redistribute; AIPerf refuses such rows. */
export const SPEED_BENCH_PLACEHOLDER = 'FULL BENCHMARK DATA SHOULD BE FETCHED FROM THE SOURCE USING SPECDEC_BENCH';

function positive(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.round(n) : null;
}

/** The turns of one row, or null when the peer's loader skips it. */
export function rowTurns(m: AnyMapping, row: Row): RowTurn[] | null {
  switch (m.kind) {
    case 'sharegpt': {
      const pair = vllmPair(row.conversations);
      return pair === null ? null : [pair];
    }
    case 'prompt': {
      const v = row[m.column];
      const prompt = v === null || v === undefined ? '' : String(v);
      return prompt.trim() === '' ? null : [withImage({ prompt }, row, m.image)];
    }
    case 'first-message': {
      const prompt = firstMessage(row[m.column], m.contentKey);
      return prompt === null ? null : [withImage({ prompt }, row, m.image)];
    }
    case 'speed-bench': {
      if (m.category !== undefined && row.category !== m.category) return null;
      const turns = Array.isArray(row.turns) ? row.turns.map((t) => (typeof t === 'string' ? t : '')) : [];
      if (turns.length === 0 || turns.some((t) => t.trim() === '' || t === SPEED_BENCH_PLACEHOLDER)) return null;
      return turns.map((prompt) => ({ prompt }));
    }
    case 'spec-bench': {
      const t = Array.isArray(row.turns) ? row.turns : [];
      const prompt = t.length > 0 ? String(t[0] ?? '') : '';
      return prompt.trim() === '' ? null : [{ prompt }];
    }
    case 'mmvu': {
      const question = str(row.question) ?? '';
      const choices = row.choices;
      let prompt = question;
      if (typeof choices === 'object' && choices !== null && !Array.isArray(choices)) {
        const list = Object.entries(choices as Row)
          .filter(([, v]) => v !== null && v !== undefined && v !== '')
          .map(([k, v]) => `${k}.${String(v)}`)
          .join(' ');
        if (list !== '') prompt = `${question} ${list}`.trim();
      }
      return prompt === '' ? null : [{ prompt }];
    }
    case 'burstgpt': {
      const input = positive(row['Request tokens']);
      const output = positive(row['Response tokens']);
      if (row.Model !== 'GPT-4' || output === null || input === null) return null;
      return [{ prompt: null, synthTokens: input, maxTokens: output }];
    }
    case 'columns': {
      const v = row[m.prompt ?? PROMPT_COLUMNS[0]];
      const prompt = v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
      if (prompt.trim() === '') return null;
      if (m.outputLen === null) return [{ prompt }];
      const n = positive(row[m.outputLen]);
      return [n === null ? { prompt } : { prompt, maxTokens: n }];
    }
  }
}
