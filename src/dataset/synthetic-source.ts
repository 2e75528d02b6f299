// Synthetic conversations: prompts of exact token lengths (normal, or a --seq-dist mixture),
// optionally several turns with think time between them, a shared prefix from a pool on each
// conversation's first turn, and one system prompt for all. With no multi-turn, prefix or
// mixture flags the turns are exactly those of SyntheticDataset with the same seed.

import { PromptSynthesizer } from '../tokenizer/synthesize.js';
import { SegmentSynthesizer } from '../tokenizer/segments.js';
import type { TextTokenizer } from '../tokenizer/types.js';
import { Rng } from '../model/rng.js';
import { IndexSampler, type SamplingStrategy } from './sampling.js';
import { pickSeqDist, type SeqDistEntry } from './seq-dist.js';
import { IndexedSource } from './source.js';
import { sampleLength, validateSyntheticConfig } from './synthetic.js';
import type { Conversation, ConversationSource, ConversationTurn, SyntheticConfig } from './types.js';

export interface SyntheticSourceConfig extends Omit<SyntheticConfig, 'count'> {
  seq_dist: readonly SeqDistEntry[] | null;
  /** Distinct conversations, replayed per `sampling`; null: a fresh conversation every time. */
  conversation_num: number | null;
  sampling: SamplingStrategy;
  turn_mean: number;
  turn_stddev: number;
  turn_delay_mean_ms: number;
  turn_delay_stddev_ms: number;
  num_prefix_prompts: number;
  prefix_prompt_length: number;
  /** The shared system prompt, already made (see createConversationSource); null: none. */
  system_prompt: string | null;
}

/** Makes conversations one after another from one seed. */
class ConversationMaker {
  private readonly islRng: Rng;
  private readonly oslRng: Rng;
  private readonly mixRng: Rng;
  private readonly turnRng: Rng;
  private readonly delayRng: Rng;
  private readonly prefixRng: Rng;
  private readonly prompts: PromptSynthesizer;
  private readonly segments: SegmentSynthesizer | null;
  private readonly prefixes: string[];
  private made = 0;

  constructor(
    private readonly cfg: SyntheticSourceConfig,
    tok: TextTokenizer,
  ) {
    // The same forks as SyntheticDataset, so plain single-turn runs keep their prompts.
    const root = new Rng(cfg.seed);
    this.islRng = root.fork('isl');
    this.oslRng = root.fork('osl');
    this.prompts = new PromptSynthesizer(tok, root.fork('prompt'));
    this.mixRng = root.fork('seq-dist');
    this.turnRng = root.fork('turns');
    this.delayRng = root.fork('turn-delay');
    this.prefixRng = root.fork('prefix-pick');
    if (cfg.num_prefix_prompts > 0) {
      const pool = new PromptSynthesizer(tok, root.fork('prefix'));
      this.prefixes = Array.from({ length: cfg.num_prefix_prompts }, () => pool.next(cfg.prefix_prompt_length));
      this.segments = new SegmentSynthesizer(tok, `${cfg.seed}/prefix-tail`);
    } else {
      this.prefixes = [];
      this.segments = null;
    }
  }

  private lengths(): { isl: number; osl: number | null } {
    const c = this.cfg;
    if (c.seq_dist) {
      const e = pickSeqDist(c.seq_dist, this.mixRng);
      return { isl: sampleLength(this.islRng, e.isl, e.isl_stddev), osl: sampleLength(this.oslRng, e.osl, e.osl_stddev) };
    }
    const isl = sampleLength(this.islRng, c.isl_mean, c.isl_stddev);
    return { isl, osl: c.osl_mean === null ? null : sampleLength(this.oslRng, c.osl_mean, c.osl_stddev) };
  }

  make(): Conversation {
    const c = this.cfg;
    const id = `synthetic-${this.made++}`;
    const nTurns = c.turn_stddev === 0 ? Math.max(1, Math.round(c.turn_mean)) : sampleLength(this.turnRng, c.turn_mean, c.turn_stddev);
    const turns: ConversationTurn[] = [];
    for (let k = 0; k < nTurns; k++) {
      let { isl, osl } = this.lengths();
      let prompt: string;
      if (k === 0 && this.segments) {
        // A shared prefix plus at least one token of the conversation's own, ISL included.
        const P = c.prefix_prompt_length;
        isl = Math.max(isl, P + 1);
        prompt = this.segments.withPrefix(this.prefixRng.pick(this.prefixes), P, isl);
      } else {
        prompt = this.prompts.next(isl);
      }
      const delay =
        k === 0
          ? null
          : c.turn_delay_stddev_ms === 0
            ? c.turn_delay_mean_ms
            : Math.max(0, this.delayRng.normal(c.turn_delay_mean_ms, c.turn_delay_stddev_ms));
      turns.push({ prompt, isl, max_tokens: osl, timestamp_ms: null, delay_ms: delay });
    }
    const conv: Conversation = { id, turns };
    if (c.system_prompt !== null) conv.system_prompt = c.system_prompt;
    return conv;
  }
}

/** Every conversation the config makes is one turn. */
function oneTurn(cfg: SyntheticSourceConfig): boolean {
  return cfg.turn_stddev === 0 && Math.max(1, Math.round(cfg.turn_mean)) === 1;
}

class EndlessSource implements ConversationSource {
  readonly kind = 'synthetic';
  readonly size = null;
  readonly hasTimestamps = false;
  readonly singleTurn: boolean;
  constructor(
    private readonly maker: ConversationMaker,
    cfg: SyntheticSourceConfig,
  ) {
    this.singleTurn = oneTurn(cfg);
  }
  next(): Conversation {
    return this.maker.make();
  }
}

export function createSyntheticSource(cfg: SyntheticSourceConfig, tok: TextTokenizer): ConversationSource {
  validateSyntheticConfig(cfg);
  const maker = new ConversationMaker(cfg, tok);
  if (cfg.conversation_num === null) return new EndlessSource(maker, cfg);
  // Finite: conversation i is the i-th one made, whatever order the sampler asks for them in.
  const made: Conversation[] = [];
  return new IndexedSource({
    kind: 'synthetic',
    hasTimestamps: false,
    singleTurn: oneTurn(cfg),
    sampler: new IndexSampler(cfg.conversation_num, cfg.sampling, new Rng(cfg.seed).fork('sampling')),
    cache: true,
    build: (i) => {
      while (made.length <= i) made.push(maker.make());
      return made[i];
    },
  });
}
