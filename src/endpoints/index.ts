// Adapter lookup by endpoint type.
import type { EndpointType } from '../config/types.js';
import { chatAdapter } from './chat.js';
import { completionsAdapter } from './completions.js';
import type { EndpointAdapter } from './types.js';

const ADAPTERS: Record<EndpointType, EndpointAdapter> = { chat: chatAdapter, completions: completionsAdapter };

export function adapterFor(type: EndpointType): EndpointAdapter {
  return ADAPTERS[type];
}
