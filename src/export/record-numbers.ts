// The numbers of a records.jsonl line, written without JSON.stringify of rounded copies: the same
// text as `JSON.stringify(round(x * scale))` (round: 12 significant digits, exact below 1e-6), at a
// fraction of the cost. Most values are whole ns shown in ms (scale 1e-6): their decimal text is
// built from digit tables, since Number→string of a fraction is the expensive step.

/** Rounds to 12 significant digits: compact, and exact to well below a microsecond for ms values. */
export function round(v: number): number {
  return Math.abs(v) >= 1e-6 ? Number(v.toPrecision(12)) : v;
}

const D3 = Array.from({ length: 1000 }, (_, k) => String(k).padStart(3, '0'));
/** D3 less its trailing zeros ("100" → "1", "000" → ""): the end of a fraction. */
const D3_END = D3.map((s) => s.replace(/0+$/, ''));

/**
 * n / 1e6 in decimal for a whole n in [0, 1e12). Such a value has at most 12 significant digits,
 * so rounding n * 1e-6 to 12 digits gives exactly these digits, and the shortest text of that
 * double is them less trailing zeros (two decimals of ≤ 15 digits never share a double).
 */
function millionths(n: number): string {
  const whole = Math.floor(n / 1e6);
  const frac = n - whole * 1e6;
  if (frac === 0) return String(whole);
  const hi = Math.floor(frac / 1000);
  const lo = frac - hi * 1000;
  return lo === 0 ? `${whole}.${D3_END[hi]}` : `${whole}.${D3[hi]}${D3_END[lo]}`;
}

/** JSON text of round(x * scale): byte for byte what JSON.stringify writes ("null" for a non-finite value). */
export function scaledNumber(x: number, scale: number): string {
  if (Number.isInteger(x) && x < 1e12 && x > -1e12) {
    if (scale === 1e-6) return x < 0 ? `-${millionths(-x)}` : millionths(x);
    // ≤ 12 digits: round() keeps a whole number as it is (and -0 is written "0" either way).
    if (scale === 1) return String(x);
  }
  const v = x * scale;
  return Number.isFinite(v) ? String(round(v)) : 'null';
}

/** JSON text of a list of values, each as scaledNumber. */
export function scaledList(xs: ArrayLike<number>, scale: number): string {
  let s = '[';
  for (let i = 0; i < xs.length; i++) s += i === 0 ? scaledNumber(xs[i], scale) : `,${scaledNumber(xs[i], scale)}`;
  return `${s}]`;
}
