// Adapter lookup by endpoint type.
import type { EndpointType, RunConfig } from '../config/types.js';
import { templateAdapter } from './template.js';
import { realtimeAdapter } from './realtime.js';
import { chatAdapter } from './chat.js';
import { completionsAdapter } from './completions.js';
import type { EndpointAdapter } from './types.js';

const ADAPTERS: Partial<Record<EndpointType, EndpointAdapter>> = {
  chat: chatAdapter,
  completions: completionsAdapter,
  realtime: realtimeAdapter,
};

/** The run's adapter; the template endpoint's is built from its settings (template.ts). */
export function adapterFor(type: EndpointType, cfg?: Pick<RunConfig, 'template'>): EndpointAdapter {
  if (type === 'template' && cfg?.template) return templateAdapter(cfg.template);
  const a = ADAPTERS[type];
  if (!a) throw new Error(`no adapter for endpoint type ${type}`);
  return a;
}
