// Fault injection: which generation request gets a fault, and the faults that replace a response
// outright (HTTP errors). In-stream faults (reset, malformed, sse-error) are acted out in stream.ts.
import type { ServerResponse } from 'node:http';
import type { FailMode, MockOptions } from './options.js';
import { errorBody } from './openai.js';
import { createRng, mixSeed, unit } from './text.js';

/** Decides faults in arrival order; counts generation requests only (not /health or /v1/models). */
export class FaultPicker {
  private count = 0;
  private readonly rng: () => number;

  constructor(private readonly opts: MockOptions) {
    // Its own stream from the seed, so fault choices do not change the output text.
    this.rng = createRng(mixSeed(opts.seed, 0xfa0175));
  }

  get enabled(): boolean {
    return this.opts.failEvery > 0 || this.opts.failRate > 0;
  }

  next(): FailMode | null {
    if (!this.enabled) return null;
    this.count++;
    const every = this.opts.failEvery > 0 && this.count % this.opts.failEvery === 0;
    const rate = this.opts.failRate > 0 && unit(this.rng) < this.opts.failRate;
    return every || rate ? this.opts.failMode : null;
  }
}

const HTTP_500 = errorBody('mock injected server error', 'server_error', 500);
const HTTP_429 = errorBody('mock injected rate limit', 'rate_limit_exceeded', 429);

/** Answer at once with the injected HTTP error. */
export function sendHttpFault(res: ServerResponse, mode: 'http500' | 'http429'): void {
  const body = mode === 'http500' ? HTTP_500 : HTTP_429;
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  };
  if (mode === 'http429') headers['retry-after'] = '1';
  res.writeHead(mode === 'http500' ? 500 : 429, headers);
  res.end(body);
}
