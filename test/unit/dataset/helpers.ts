// Shared by the dataset tests: fixture paths and loading a source the way `profile` does.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRunConfig, type ProfileFlags } from '../../../src/config/validate.js';
import { createConversationSource } from '../../../src/dataset/index.js';
import type { Conversation, ConversationSource } from '../../../src/dataset/types.js';
import type { TextTokenizer } from '../../../src/tokenizer/types.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/datasets');

export function fixture(name: string): string {
  return path.join(FIXTURES, name);
}

export interface Loaded {
  source: ConversationSource;
  warnings: string[];
}

export async function loadSource(tok: TextTokenizer, flags: ProfileFlags): Promise<Loaded> {
  const warnings: string[] = [];
  const source = await createConversationSource(buildRunConfig(flags, {}), tok, { warn: (m) => warnings.push(m) });
  return { source, warnings };
}

export function take(source: ConversationSource, n: number): Conversation[] {
  return Array.from({ length: n }, () => source.next());
}
