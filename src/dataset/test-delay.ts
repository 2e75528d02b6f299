// A test hook: SERVEBENCH_TEST_DATASET_DELAY_MS=N makes every next() of the conversation source
// block for N ms, as a slow dataset (a huge file, a slow generator) would, so that the generation
// delay metric can be shown to see it. Unset (always, outside tests): the source as it is.
import type { ConversationSource } from './types.js';

export const DATASET_DELAY_ENV = 'SERVEBENCH_TEST_DATASET_DELAY_MS';

export function withTestDelay(source: ConversationSource, env: NodeJS.ProcessEnv): ConversationSource {
  const ms = Number(env[DATASET_DELAY_ENV] ?? 0);
  if (!(ms > 0) || !Number.isFinite(ms)) return source;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  return {
    kind: source.kind,
    size: source.size,
    hasTimestamps: source.hasTimestamps,
    ...(source.singleTurn !== undefined ? { singleTurn: source.singleTurn } : {}),
    next: () => {
      Atomics.wait(cell, 0, 0, ms); // a synchronous sleep: next() is synchronous
      return source.next();
    },
  };
}
