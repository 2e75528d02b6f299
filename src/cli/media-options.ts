// The media flags of `servebench profile` (issue 16 items 5-7), named as in AIPerf.
import type { Options } from 'yargs';

const G = 'Images and audio:';

export const mediaOptions: Record<string, Options> = {
  'image-width-mean': {
    type: 'number',
    group: G,
    describe: 'synthetic input images (chat): width in pixels, mean (0: no images); image_generation: the size asked (default 1024)',
  },
  'image-width-stddev': { type: 'number', group: G, describe: 'synthetic image width, stddev' },
  'image-height-mean': { type: 'number', group: G, describe: 'synthetic image height in pixels, mean (with --image-width-mean)' },
  'image-height-stddev': { type: 'number', group: G, describe: 'synthetic image height, stddev' },
  'image-format': { type: 'string', choices: ['png', 'jpeg'], group: G, describe: 'synthetic image format (default png)' },
  'batch-size-image': {
    type: 'number',
    alias: 'image-batch-size',
    group: G,
    describe: 'images per request: input images (chat), or `n` of image_generation (default 1)',
  },
  'audio-length-mean': {
    type: 'number',
    group: G,
    describe: 'synthetic WAV input in seconds, mean: chat input_audio parts, or the transcription file (default 5 for transcriptions)',
  },
  'audio-length-stddev': { type: 'number', group: G, describe: 'synthetic audio length in seconds, stddev' },
  'audio-sample-rates': { type: 'string', array: true, group: G, describe: 'sample rates in kHz a clip picks from, seeded (default 16)' },
  'audio-depths': { type: 'string', array: true, group: G, describe: 'bit depths a clip picks from: 8, 16, 24, 32 (default 16)' },
  'audio-num-channels': { type: 'number', group: G, describe: 'channels of synthetic audio, 1 or 2 (default 1)' },
  'audio-format': { type: 'string', group: G, describe: 'audio format (wav only)' },
  'batch-size-audio': { type: 'number', alias: 'audio-batch-size', group: G, describe: 'audio clips per chat request (default 1)' },
  'audio-file': { type: 'string', array: true, group: G, describe: 'WAV file(s) used as the audio input instead of synthetic clips' },
};
