// The texts an endpoint type sends beside the prompt (Turn.inputs): an embeddings request carries
// --batch-size-text prompts (this one and the next conversations' first turns), a rankings request
// its query and the passages of the dataset line (single_turn "passages"), or else --rankings-passages
// synthetic passages of --rankings-passage-length tokens. The
// turn's ISL then counts every text sent, so input tokens stay exact without a second count.
import type { EndpointSettings } from '../endpoints/settings.js';
import type { EndpointType } from '../endpoints/types.js';
import { PromptSynthesizer } from '../tokenizer/synthesize.js';
import type { TextTokenizer } from '../tokenizer/types.js';
import { Rng } from '../model/rng.js';
import type { Conversation, ConversationSource, ConversationTurn } from './types.js';

/** What the endpoint inputs read of a run (config/types.ts RunConfig has these fields). */
export interface EndpointInputSettings {
  readonly endpoint_type: EndpointType;
  readonly endpoint_settings: EndpointSettings;
  readonly random_seed: number;
}

function sumIsl(turns: readonly ConversationTurn[], extra = 0): number | null {
  let n = extra;
  for (const t of turns) {
    if (t.isl === null) return null;
    n += t.isl;
  }
  return n;
}

function textOf(t: ConversationTurn): string {
  return t.messages ? t.messages.map((m) => m.content).join('\n') : t.prompt;
}

/** One-turn conversations whose turn carries the endpoint type's extra texts; other types: `src` itself. */
export function withEndpointInputs(src: ConversationSource, cfg: EndpointInputSettings, tok: TextTokenizer): ConversationSource {
  const s = cfg.endpoint_settings;
  let next: () => Conversation;
  if (cfg.endpoint_type === 'embeddings' && s.batch_size_text > 1) {
    const k = s.batch_size_text;
    next = () => {
      const convs = Array.from({ length: k }, () => src.next());
      const turns = convs.map((c) => c.turns[0]);
      const [first, ...rest] = turns;
      const turn: ConversationTurn = { ...first, prompt: textOf(first), isl: sumIsl(turns), inputs: rest.map(textOf) };
      delete turn.messages;
      return { id: convs.map((c) => c.id).join('+'), turns: [turn] };
    };
  } else if (cfg.endpoint_type === 'rankings') {
    const synth = new PromptSynthesizer(tok, new Rng(cfg.random_seed).fork('rankings-passages'));
    next = () => {
      const c = src.next();
      const query = c.turns[0];
      // A dataset line's own "passages" (single_turn), else --rankings-passages synthetic ones of exact length.
      const own = query.inputs;
      const inputs = own ?? Array.from({ length: s.rankings_passages }, () => synth.next(s.rankings_passage_length));
      const passageTokens = own ? own.reduce((n, p) => n + tok.count(p), 0) : s.rankings_passages * s.rankings_passage_length;
      const turn: ConversationTurn = { ...query, prompt: textOf(query), isl: sumIsl([query], passageTokens), inputs };
      delete turn.messages;
      return { id: c.id, turns: [turn] };
    };
  } else if (cfg.endpoint_type === 'embeddings') {
    // A dataset line's "passages" are the rankings endpoint's; an embeddings request sends the prompt alone.
    next = () => {
      const c = src.next();
      if (!c.turns[0].inputs) return c;
      const turn: ConversationTurn = { ...c.turns[0] };
      delete turn.inputs;
      return { ...c, turns: [turn, ...c.turns.slice(1)] };
    };
  } else return src;
  return { kind: src.kind, size: src.size, hasTimestamps: src.hasTimestamps, next };
}
