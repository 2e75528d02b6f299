// Adapter lookup by endpoint type.
import type { EndpointType } from '../config/types.js';
import { chatAdapter } from './chat.js';
import { completionsAdapter } from './completions.js';
import { embeddingsAdapter } from './embeddings.js';
import { messagesAdapter } from './messages.js';
import { rankingsAdapter } from './rankings.js';
import { responsesAdapter } from './responses.js';
import { imageGenerationAdapter } from './image-generation.js';
import { transcriptionsAdapter } from './transcriptions.js';
import type { EndpointAdapter } from './types.js';
import { videoGenerationAdapter } from './video-generation.js';

const ADAPTERS: Record<EndpointType, EndpointAdapter> = {
  chat: chatAdapter,
  completions: completionsAdapter,
  embeddings: embeddingsAdapter,
  rankings: rankingsAdapter,
  responses: responsesAdapter,
  messages: messagesAdapter,
  transcriptions: transcriptionsAdapter,
  image_generation: imageGenerationAdapter,
  video_generation: videoGenerationAdapter,
};

export function adapterFor(type: EndpointType): EndpointAdapter {
  return ADAPTERS[type];
}
