// A public dataset (a registry entry, or any Hub dataset by --hf-dataset) as a ConversationSource:
// its files located (locate.ts), its rows read lazily (rows.ts) and mapped (mapping.ts) until the
// run has all it can draw, then served by an IndexedSource like every file dataset.

import { InvalidArgumentError } from '../../errors.js';
import { PromptSynthesizer } from '../../tokenizer/synthesize.js';
import { fallbackMaxTokens, samplerFor, type LoadContext } from '../context.js';
import { MAX_DATASET_ENTRIES } from '../file.js';
import { Rng } from '../../model/rng.js';
import { vllmValidSequence } from '../sharegpt.js';
import { IndexedSource } from '../source.js';
import type { Conversation, ConversationTurn } from '../types.js';
import { locateFiles, type HubFiles } from './locate.js';
import { checkColumns, resolvePromptColumn, rowTurns, type AnyMapping, type RowTurn } from './mapping.js';
import type { DataFiles } from './registry.js';
import { readRows } from './rows.js';

export interface PublicSourceSpec {
  /** The kind the source reports ('public:sharegpt', 'hf:org/name'). */
  kind: string;
  repo: string;
  revision: string;
  data: DataFiles;
  mapping: AnyMapping;
  /** The flag that names a column, for the message when it is missing (--hf-prompt-column). */
  flagOf: (column: string) => string | null;
}

interface Entry {
  turns: RowTurn[];
  /** Counted while reading (ShareGPT's filter needs them); else counted when first built. */
  counted?: { isl: number; maxTokens: number };
}

/**
 * Reads rows until `needed` conversations are kept (null: all), and makes the source. Rows the
 * peer's loader skips are skipped and counted in one warning.
 */
export async function loadPublicSource(
  spec: PublicSourceSpec,
  ctx: LoadContext,
  hub: HubFiles,
  needed: number | null,
): Promise<IndexedSource> {
  const located = await locateFiles(hub, spec.repo, spec.revision, spec.data);
  const entries: Entry[] = [];
  const tok = ctx.tokenizer;
  let skipped = 0;
  let first = true;
  let mapping = spec.mapping;
  reading: for await (const file of located.files()) {
    for await (const row of readRows(file, located.format)) {
      if (first) {
        if (mapping.kind === 'columns') mapping = resolvePromptColumn(mapping, row, located.where);
        checkColumns(mapping, row, located.where, spec.flagOf);
        first = false;
      }
      const turns = rowTurns(mapping, row);
      if (turns === null) {
        skipped++;
        continue;
      }
      const entry: Entry = { turns };
      if (mapping.kind === 'sharegpt') {
        const t = turns[0];
        const isl = tok.count(t.prompt ?? '');
        const maxTokens = tok.count(t.reply ?? '');
        if (!vllmValidSequence(isl, maxTokens)) {
          skipped++;
          continue;
        }
        entry.counted = { isl, maxTokens };
      }
      entries.push(entry);
      if (entries.length === needed || entries.length >= MAX_DATASET_ENTRIES) break reading;
    }
  }
  if (first) throw new InvalidArgumentError(`${located.where}: the dataset has no rows`);
  if (skipped > 0)
    ctx.warn(
      `${located.where}: skipped ${skipped} ${skipped === 1 ? 'row' : 'rows'} its peer loader skips (empty prompt, or out of its length limits)`,
    );
  if (entries.length === 0) throw new InvalidArgumentError(`${located.where}: no usable row (all ${skipped} skipped)`);

  const synth = entries.some((e) => e.turns.some((t) => t.prompt === null))
    ? new PromptSynthesizer(tok, new Rng(ctx.seed).fork('public'))
    : null;
  return new IndexedSource({
    kind: spec.kind,
    hasTimestamps: false,
    singleTurn: entries.every((e) => e.turns.length === 1),
    sampler: samplerFor(ctx, entries.length),
    cache: true,
    build: (i) => {
      const e = entries[i];
      const turns: ConversationTurn[] = e.turns.map((t, k) => {
        const prompt = t.prompt ?? (synth as PromptSynthesizer).next(t.synthTokens ?? 1);
        const isl = e.counted?.isl ?? (t.prompt === null ? (t.synthTokens ?? null) : tok.count(prompt));
        const maxTokens =
          e.counted?.maxTokens ??
          t.maxTokens ??
          (t.reply !== undefined ? Math.max(1, tok.count(t.reply)) : fallbackMaxTokens(ctx, `${i}/${k}`));
        const turn: ConversationTurn = { prompt, isl, max_tokens: maxTokens, timestamp_ms: null, delay_ms: null };
        if (t.images) turn.media = { images: t.images };
        return turn;
      });
      const conv: Conversation = { id: `${spec.kind}/${i}`, turns };
      if (ctx.systemPrompt !== null) conv.system_prompt = ctx.systemPrompt;
      return conv;
    },
  });
}
