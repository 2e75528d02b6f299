// Adapter lookup by endpoint type.
import { templateAdapter } from './template.js';
import { realtimeAdapter } from './realtime.js';
import { chatAdapter } from './chat.js';
import { completionsAdapter } from './completions.js';
import { embeddingsAdapter } from './embeddings.js';
import { messagesAdapter } from './messages.js';
import { rankingsAdapter } from './rankings.js';
import { responsesAdapter } from './responses.js';
import { imageGenerationAdapter } from './image-generation.js';
import { transcriptionsAdapter } from './transcriptions.js';
import type { EndpointAdapter, EndpointType } from './types.js';
import type { TemplateSettings } from './template-config.js';
import { videoGenerationAdapter } from './video-generation.js';

// The template endpoint has no fixed adapter: it is built from the run's settings.
const ADAPTERS: Record<Exclude<EndpointType, 'template'>, EndpointAdapter> = {
  chat: chatAdapter,
  completions: completionsAdapter,
  embeddings: embeddingsAdapter,
  rankings: rankingsAdapter,
  responses: responsesAdapter,
  messages: messagesAdapter,
  transcriptions: transcriptionsAdapter,
  image_generation: imageGenerationAdapter,
  video_generation: videoGenerationAdapter,
  realtime: realtimeAdapter,
};

/** The run's adapter; the template endpoint's is built from its settings (template.ts). */
export function adapterFor(type: EndpointType, cfg?: { readonly template: TemplateSettings | null }): EndpointAdapter {
  if (type !== 'template') return ADAPTERS[type];
  if (!cfg?.template) throw new Error('the template endpoint needs its settings (--template-file)');
  return templateAdapter(cfg.template);
}
