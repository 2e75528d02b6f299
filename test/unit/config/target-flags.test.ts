// --url (repeatable), --url-weights, --model a,b, --model-selection-strategy, --model-weights.
import { describe, expect, it } from 'vitest';
import { buildRunConfig } from '../../../src/config/validate.js';
import { redactConfig, secretsOf } from '../../../src/config/redact.js';
import { InvalidArgumentError } from '../../../src/errors.js';

const twoUrls = { url: ['http://127.0.0.1:8001', 'http://u:secret-pw@127.0.0.1:8002/base/'] };

describe('several targets', () => {
  it('keeps every URL without its credentials, the first as the run URL', () => {
    const cfg = buildRunConfig({ ...twoUrls, 'url-weights': '3,1', transport: 'undici' });
    expect(cfg.url).toBe('http://127.0.0.1:8001');
    expect(cfg.targets.urls.map((u) => u.url)).toEqual(['http://127.0.0.1:8001', 'http://127.0.0.1:8002/base']);
    expect(cfg.targets.urls[1].credentials).toEqual({ username: 'u', password: 'secret-pw' });
    expect(cfg.targets.url_weights).toEqual([3, 1]);
    // The second URL's credentials are secrets, and never in the written config.
    expect(secretsOf(cfg)).toContain('secret-pw');
    expect(JSON.stringify(redactConfig(cfg))).not.toContain('secret-pw');
  });

  it('a single --url string still works', () => {
    const cfg = buildRunConfig({ url: 'http://127.0.0.1:8001' });
    expect(cfg.targets.urls).toHaveLength(1);
    expect(cfg.targets.url_weights).toBeNull();
  });

  it('--model a,b: the first is the run model; strategies', () => {
    const rr = buildRunConfig({ model: 'a, b' });
    expect(rr.model).toBe('a');
    expect(rr.targets.models).toEqual(['a', 'b']);
    expect(rr.targets.model_selection_strategy).toBe('round_robin');
    const w = buildRunConfig({ model: 'a,b', 'model-weights': '2,1' });
    expect(w.targets.model_selection_strategy).toBe('weighted');
    expect(w.targets.model_weights).toEqual([2, 1]);
    expect(buildRunConfig({ model: 'a,b', 'model-selection-strategy': 'random' }).targets.model_selection_strategy).toBe('random');
  });

  it.each([
    [{ ...twoUrls, 'url-weights': '3,x' }, '--url-weights'],
    [{ ...twoUrls, 'url-weights': '1' }, '--url-weights: expected 2 weights'],
    [{ ...twoUrls, 'url-weights': '0,0' }, '--url-weights: at least one'],
    [{ ...twoUrls, 'url-weights': '-1,2' }, '--url-weights'],
    [{ 'url-weights': '1' }, '--url-weights'],
    [{ model: 'a,,b' }, '--model'],
    [{ model: 'a,b', 'model-selection-strategy': 'weighted' }, '--model-selection-strategy: weighted needs --model-weights'],
    [{ model: 'a,b', 'model-weights': '1,2', 'model-selection-strategy': 'random' }, '--model-weights'],
    [{ model: 'a,b', 'model-selection-strategy': 'fastest' }, '--model-selection-strategy'],
  ])('%j is bad input naming the flag', (flags, msg) => {
    expect(() => buildRunConfig(flags as never)).toThrow(InvalidArgumentError);
    expect(() => buildRunConfig(flags as never)).toThrow(msg);
  });
});
