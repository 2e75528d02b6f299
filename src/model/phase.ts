// The phases of a run. Ground floor (src/model/): imports nothing above it.

/** 'cooldown': load kept on after the measured part (--cooldown-duration); never in the metrics. */
export type Phase = 'warmup' | 'profiling' | 'cooldown';
