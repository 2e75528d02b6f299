// Defaults shared by the CLI help and validation.
export const DEFAULTS = {
  model: 'mock-model',
  endpoint_type: 'chat',
  concurrency: 8,
  request_count: 100,
  warmup_request_count: 0,
  request_timeout_s: 600,
  isl_mean: 128,
  isl_stddev: 0,
  osl_mean: 64,
  osl_stddev: 0,
  random_seed: 0,
  export_level: 'records',
  ui: 'auto',
  transport: 'auto',
  transport_threads: 1,
} as const;

export const ENDPOINT_PATHS = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
} as const;
