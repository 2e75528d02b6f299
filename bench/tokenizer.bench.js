// Tokenizer costs the harness pays: loading the default tokenizer, building its prompt
// pool, synthesizing exact-length prompts (per request) and counting tokens (per record).
import { duration, importDist, median, now } from './lib.js';

export const description = 'tokenizer load, prompt pool build, exact-length prompt synthesis, token counting';

const LENGTHS = [200, 1000, 8000];

/** Per-call ns of `fn(n)`, timed one call at a time after `warmup` untimed calls. */
function perCall(fn, n, { samples, warmup }) {
  for (let i = 0; i < warmup; i++) fn(n);
  const out = [];
  for (let i = 0; i < samples; i++) {
    const t0 = now();
    fn(n);
    out.push(Number(now() - t0));
  }
  return out;
}

function p(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

export async function run(ctx) {
  const load = await importDist('tokenizer/load.js');
  const synth = await importDist('tokenizer/synthesize.js');
  const rngMod = await importDist('model/rng.js');
  if (!load || !synth || !rngMod) {
    return { tables: [], notes: ['dist/ is not built: run `npm run build:ts` first'] };
  }

  let t0 = now();
  const tok = await load.loadTokenizer();
  const loadNs = Number(now() - t0);
  t0 = now();
  synth.getTokenPool(tok);
  const poolNs = Number(now() - t0);

  const opts = ctx.quick ? { samples: 30, warmup: 5 } : { samples: 1000, warmup: 200 };
  const slow = ctx.quick ? { samples: 10, warmup: 2 } : { samples: 100, warmup: 20 };
  // charCodeAt in the middle flattens the sliced/concatenated string, as a JSON body would.
  const fast = new synth.PromptSynthesizer(tok, new rngMod.Rng(1));
  const verified = new synth.PromptSynthesizer(tok, new rngMod.Rng(1), { verify: true });
  const texts = Object.fromEntries(LENGTHS.map((n) => [n, fast.next(n)]));

  const rows = [];
  for (const n of LENGTHS) {
    const f = perCall((k) => fast.next(k).charCodeAt(k >> 1), n, opts);
    const v = perCall((k) => verified.next(k), n, slow);
    const c = perCall((k) => tok.count(texts[k]), n, slow);
    rows.push([n, duration(median(f)), duration(p(f, 0.99)), duration(median(v)), duration(median(c))]);
  }

  return {
    tables: [
      {
        title: `Prompt synthesis (${tok.name}, pool mode ${fast.mode}; per call)`,
        columns: ['tokens', 'next() p50', 'next() p99', 'verify:true p50', 'count() p50'],
        rows,
      },
      {
        title: 'One-time costs',
        columns: ['step', 'time'],
        rows: [
          ['loadTokenizer() (parse + build tables)', duration(loadNs)],
          ['prompt pool build + self-test', duration(poolNs)],
        ],
      },
    ],
    notes: [
      'next(): slices pre-checked clean cuts of the encoded corpus, no re-encode (see src/tokenizer/pool.ts).',
      'verify:true re-counts each prompt, about the cost of count() on it.',
    ],
  };
}
