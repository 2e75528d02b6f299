// The profile flags of the over-saturation integration tests: a short open-loop run with the stop on.
export const MIN_DURATION_S = 2;
/** The stated detection time: min duration, then both slopes significant for confirm_s (1 s), checked every 0.25 s; 1 s of slack for a loaded host. */
export const DETECT_BY_S = MIN_DURATION_S + 1 + 0.25 + 1;

export const overSaturationArgs = (url: string, dir: string, rate: number, duration: number) => [
  'profile',
  '--url',
  url,
  '--request-rate',
  String(rate),
  '--benchmark-duration',
  String(duration),
  '--benchmark-grace-period',
  '0',
  '--stop-on-over-saturation',
  '--over-saturation-min-duration',
  String(MIN_DURATION_S),
  '--over-saturation-min-samples',
  '20',
  '--osl',
  '9',
  '--isl',
  '20',
  '--no-server-metrics',
  '--record-workers',
  '1',
  '--artifact-dir',
  dir,
  '--ui',
  'none',
];
