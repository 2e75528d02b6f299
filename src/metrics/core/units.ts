// Base → display unit conversion. Every conversion is a pure scale factor, so it applies
// equally to values, percentiles and standard deviations.

/** The units metric values are computed and kept in. */
export type BaseUnit =
  | 'ns'
  | 'tokens'
  | 'requests'
  | 'tokens/s'
  | 'requests/s'
  | 'tokens/s/user'
  | 'percent'
  | 'ratio'
  | 'bytes'
  | 'count'
  | 'W'
  | 'J'
  | 'J/token'
  | 'J/request'
  | 'J/user'
  | 'tokens/J'
  | 'requests/s/W'
  | 'tokens/s/W'
  | 'J*s'
  | 'images'
  | 'images/s'
  | 'MB';
/** The units values are shown and exported in. */
export type DisplayUnit =
  | 'ms'
  | 's'
  | 'tokens'
  | 'requests'
  | 'tokens/s'
  | 'requests/s'
  | 'tokens/s/user'
  | '%'
  | 'ratio'
  | 'ns'
  | 'bytes'
  | 'count'
  | 'W'
  | 'J'
  | 'mJ/token'
  | 'J/request'
  | 'J/user'
  | 'tokens/J'
  | 'requests/s/W'
  | 'tokens/s/W'
  | 'J*s'
  | 'images'
  | 'images/s'
  | 'MB';

const FACTORS: Record<BaseUnit, Partial<Record<DisplayUnit, number>>> = {
  ns: { ns: 1, ms: 1e-6, s: 1e-9 },
  tokens: { tokens: 1 },
  requests: { requests: 1 },
  'tokens/s': { 'tokens/s': 1 },
  'requests/s': { 'requests/s': 1 },
  'tokens/s/user': { 'tokens/s/user': 1 },
  percent: { '%': 1 },
  ratio: { ratio: 1, '%': 100 },
  bytes: { bytes: 1 },
  count: { count: 1 },
  W: { W: 1 },
  J: { J: 1 },
  'J/token': { 'mJ/token': 1e3 },
  'J/request': { 'J/request': 1 },
  'J/user': { 'J/user': 1 },
  'tokens/J': { 'tokens/J': 1 },
  'requests/s/W': { 'requests/s/W': 1 },
  'tokens/s/W': { 'tokens/s/W': 1 },
  'J*s': { 'J*s': 1 },
  images: { images: 1 },
  'images/s': { 'images/s': 1 },
  MB: { MB: 1 },
};

/** The factor from `unit` to `display`; throws for a pair no metric should declare. */
export function displayFactor(unit: BaseUnit, display: DisplayUnit): number {
  const f = FACTORS[unit]?.[display];
  if (f === undefined) throw new Error(`no conversion from ${unit} to ${display}`);
  return f;
}

export function toDisplay(value: number, unit: BaseUnit, display: DisplayUnit): number {
  return value * displayFactor(unit, display);
}

/** The label shown next to a header, e.g. "Time to First Token (ms)". */
export function withUnit(header: string, display: DisplayUnit): string {
  return `${header} (${display})`;
}
