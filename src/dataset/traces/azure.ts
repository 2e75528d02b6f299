// The Azure LLM inference traces (Azure/AzurePublicDataset, https://github.com/Azure/AzurePublicDataset:
// AzureLLMInferenceDataset2023.md, the Splitwise paper's one-hour traces, and
// AzureLLMInferenceDataset2024.md, DynamoLLM's one-week traces): CSV files with the columns
//   TIMESTAMP,ContextTokens,GeneratedTokens
//   2023-11-16 18:15:46.6805900,4808,10
// TIMESTAMP is a date-time (UTC; 2024's may carry an offset such as +00:00) with up to 7 fractional
// digits; requests are replayed at their offset from the trace's earliest one. The traces name no
// model. Rows with 0 context or generated tokens are skipped, with one warning.

import { InvalidFileError } from '../../errors.js';
import type { LoadContext } from '../context.js';
import type { IndexedSource } from '../source.js';
import { csvNumber, readCsvRows } from './csv-rows.js';
import { checkTokens, traceSource, type TraceRequest } from './trace.js';

export const AZURE_COLUMNS = ['TIMESTAMP', 'ContextTokens', 'GeneratedTokens'] as const;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/** ms since the epoch of an Azure TIMESTAMP, to the microsecond (Date.parse keeps only ms); null if not one. */
export function parseAzureTime(text: string): number | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (!Number.isFinite(ms)) return null;
  if (frac) ms += Number(`0.${frac}`) * 1000;
  if (zone && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return ms;
}

export async function loadAzureTrace(ctx: LoadContext): Promise<IndexedSource> {
  const file = ctx.file;
  const rows: TraceRequest[] = [];
  let skipped = 0;
  let first = Infinity;
  for await (const r of readCsvRows(file, AZURE_COLUMNS, 'Azure LLM inference', AZURE_COLUMNS)) {
    const raw = r.row.TIMESTAMP;
    const at = parseAzureTime(raw);
    if (at === null) {
      throw new InvalidFileError(
        `${file}:${r.line}: column "TIMESTAMP" must be a date-time like 2023-11-16 18:15:46.6805900, got ${JSON.stringify(raw)}`,
      );
    }
    const input = checkTokens(file, r.line, 'ContextTokens', csvNumber(file, r, 'ContextTokens', 'non-negative integer'));
    const output = csvNumber(file, r, 'GeneratedTokens', 'non-negative integer');
    if (input === 0 || output === 0) {
      skipped++;
      continue;
    }
    if (at < first) first = at;
    rows.push({ line: r.line, at_ms: at, input, output, model: null });
  }
  if (skipped > 0) ctx.warn(`${file}: skipped ${skipped} ${skipped === 1 ? 'row' : 'rows'} with 0 context or generated tokens`);
  for (const r of rows) r.at_ms -= first;
  return traceSource(ctx, { kind: 'azure_llm_trace', sessions: rows.map((r) => [r]) });
}
