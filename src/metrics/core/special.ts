// Special functions for the confidence intervals, written here rather than taken from a
// dependency: log-gamma, the regularized incomplete beta and gamma functions, the normal and
// Student t distributions and their quantiles, and binomial tail probabilities. Double precision
// throughout (about 1e-14 relative where the functions are well conditioned).

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7). */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + LANCZOS_G + 0.5;
  for (let i = 1; i < LANCZOS.length; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

const TINY = 1e-300;
const EPS = 1e-15;

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  // Convergence takes O(sqrt(max(a, b))) terms; the cap only stops a runaway on bad input.
  const maxIter = 1000 + 20 * Math.ceil(Math.sqrt(Math.max(a, b)));
  for (let m = 1; m <= maxIter; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b), a, b > 0, x in [0, 1]. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(lnFront);
  // The fraction converges fast below the mean of the beta distribution; use the symmetry above it.
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(a, b, x)) / a;
  return 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** The regularized lower incomplete gamma function P(a, x), a > 0, x ≥ 0, and its complement Q. */
function incompleteGamma(a: number, x: number): { p: number; q: number } {
  if (x <= 0) return { p: 0, q: 1 };
  const lnFront = -x + a * Math.log(x) - lnGamma(a);
  if (x < a + 1) {
    // Series.
    let ap = a;
    let sum = 1 / a;
    let del = sum;
    for (let n = 0; n < 100000; n++) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (Math.abs(del) < Math.abs(sum) * EPS) break;
    }
    const p = sum * Math.exp(lnFront);
    return { p, q: 1 - p };
  }
  // Continued fraction (modified Lentz).
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 100000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  const q = Math.exp(lnFront) * h;
  return { p: 1 - q, q };
}

/** The standard normal CDF Φ(x), accurate in both tails. */
export function normalCdf(x: number): number {
  const { p, q } = incompleteGamma(0.5, (x * x) / 2);
  return x >= 0 ? 0.5 + 0.5 * p : 0.5 * q;
}

function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

/** The standard normal quantile Φ⁻¹(p), p in (0, 1). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  if (p === 0.5) return 0;
  // Abramowitz & Stegun 26.2.23 (error < 4.5e-4) as the start, then Newton on the exact CDF.
  const tail = Math.min(p, 1 - p);
  const t = Math.sqrt(-2 * Math.log(tail));
  let x = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
  if (p < 0.5) x = -x;
  for (let i = 0; i < 8; i++) {
    const step = (normalCdf(x) - p) / normalPdf(x);
    x -= step;
    if (Math.abs(step) < 1e-15 * Math.max(1, Math.abs(x))) break;
  }
  return x;
}

/** The CDF of Student's t distribution with `df` > 0 degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  if (t === 0) return 0.5;
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}

function studentTPdf(t: number, df: number): number {
  const ln = lnGamma((df + 1) / 2) - lnGamma(df / 2) - 0.5 * Math.log(df * Math.PI) - ((df + 1) / 2) * Math.log1p((t * t) / df);
  return Math.exp(ln);
}

/** The quantile of Student's t distribution: the t with P(T ≤ t) = p, for p in (0, 1) and df > 0. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`studentTQuantile: p must be in (0, 1), got ${p}`);
  if (!(df > 0)) throw new RangeError(`studentTQuantile: df must be positive, got ${df}`);
  if (p === 0.5) return 0;
  // Closed forms for 1 and 2 degrees of freedom.
  if (df === 1) return Math.tan(Math.PI * (p - 0.5));
  if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  // Start from the Cornish-Fisher expansion around the normal quantile, then safeguarded Newton.
  const z = normalQuantile(p);
  const z2 = z * z;
  let t =
    z +
    (z * (z2 + 1)) / (4 * df) +
    (z * (5 * z2 * z2 + 16 * z2 + 3)) / (96 * df * df) +
    (z * (3 * z2 * z2 * z2 + 19 * z2 * z2 + 17 * z2 - 15)) / (384 * df * df * df);
  let lo = 0;
  let hi = Math.max(2 * t, 1);
  while (studentTCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200; i++) {
    const f = studentTCdf(t, df) - p;
    if (f > 0) hi = Math.min(hi, t);
    else lo = Math.max(lo, t);
    let next = t - f / studentTPdf(t, df);
    // Leave the bracket only by bisecting.
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - t) <= 1e-14 * Math.max(1, Math.abs(t))) return next;
    t = next;
  }
  return t;
}

/** P(B ≤ k) for B ~ Binomial(n, q), integer 0 ≤ k. */
export function binomialCdf(k: number, n: number, q: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (q <= 0) return 1;
  if (q >= 1) return 0;
  return incompleteBeta(1 - q, n - k, k + 1);
}
