// BurstGPT (HPMLL/BurstGPT, https://github.com/HPMLL/BurstGPT): a CSV of Azure OpenAI GPT-3.5/GPT-4
// requests with the columns its README documents:
//   Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type
//   5,ChatGPT,472,18,490,Conversation log
// Timestamp is seconds from the trace's start; Model ("ChatGPT", "GPT-4") can pick the run's model
// (trace.ts modelMap). Rows with 0 response tokens are failed requests (the README's BurstGPT_1.csv
// keeps them; the *_without_fails files drop them): they are skipped, with one warning, since
// max_tokens 0 asks for nothing. AIPerf's name for this format is burst_gpt_trace.

import type { LoadContext } from '../context.js';
import type { IndexedSource } from '../source.js';
import { csvNumber, readCsvRows } from './csv-rows.js';
import { checkTokens, traceSource, type TraceRequest } from './trace.js';

export const BURSTGPT_COLUMNS = ['Timestamp', 'Model', 'Request tokens', 'Response tokens', 'Total tokens', 'Log Type'] as const;
const REQUIRED = ['Timestamp', 'Request tokens', 'Response tokens'];

export async function loadBurstGpt(ctx: LoadContext): Promise<IndexedSource> {
  const file = ctx.file;
  const sessions: TraceRequest[][] = [];
  let failed = 0;
  for await (const r of readCsvRows(file, REQUIRED, 'BurstGPT', BURSTGPT_COLUMNS)) {
    const at = csvNumber(file, r, 'Timestamp', 'non-negative');
    const input = checkTokens(file, r.line, 'Request tokens', csvNumber(file, r, 'Request tokens', 'non-negative integer'));
    const output = csvNumber(file, r, 'Response tokens', 'non-negative integer');
    if (input === 0 || output === 0) {
      failed++;
      continue;
    }
    const model = r.row.Model ?? '';
    sessions.push([{ line: r.line, at_ms: at * 1000, input, output, model: model === '' ? null : model }]);
  }
  if (failed > 0) {
    ctx.warn(`${file}: skipped ${failed} ${failed === 1 ? 'row' : 'rows'} with 0 request or response tokens (failed requests in BurstGPT)`);
  }
  return traceSource(ctx, { kind: 'burst_gpt_trace', sessions });
}
