// MetricHistogram: one metric's native HDR histogram (native/hdr/hdr.h) and the value scale of its
// unit. Every distribution in the summary is read from one of these (see stats.ts, ../accumulate.ts).
//
// Scale: the histogram records integers (values are rounded half up), so a value is recorded as
// value × scale. Units whose values are whole numbers in base units (ns, tokens, requests, bytes,
// counts) use scale 1; every fractional unit (rates, ratios, percent, energy, power) uses 1e6, so
// its values are kept to a millionth of a unit: at the default 3 significant digits a percentile
// is within 0.1 % of the exact value for any value ≥ 0.0005 of its unit (below that, rounding to
// the millionth dominates). The exact statistics (avg/min/max/std/sum) are kept before rounding.
import { InvalidArgumentError, NativeArgumentError } from '../../errors.js';
import { callNative, native, type NativeHistogram } from '../../native.js';
import { decodeCompressed, encodeCompressed } from './histogram-codec.js';
import type { BaseUnit } from './units.js';

export const DEFAULT_SIGNIFICANT_DIGITS = 3;
export const MIN_SIGNIFICANT_DIGITS = 1;
export const MAX_SIGNIFICANT_DIGITS = 5;

const WHOLE_UNITS: ReadonlySet<string> = new Set(['ns', 'tokens', 'requests', 'bytes', 'count']);
/** Scale of every fractional unit: a millionth of the unit is the recorded resolution. */
export const FRACTIONAL_SCALE = 1e6;

/** The recording scale for a metric of this base unit (see the file comment). */
export function histogramScale(unit: BaseUnit): number {
  return WHOLE_UNITS.has(unit) ? 1 : FRACTIONAL_SCALE;
}

/** One entry of histograms.json: the encoded histogram holds values × scale, in base units. */
export interface HistogramExport {
  unit: BaseUnit;
  scale: number;
  /** HdrHistogram's compressed V2 form (base64, "HISTFAAA…"), readable by any HdrHistogram library. */
  encoded: string;
  /** Only for a metric that had negative values: the histogram of their magnitudes, same form. */
  encoded_negative?: string;
}

export interface MetricHistogramOptions {
  /** 1–5 (default 3): percentiles are within 10^-digits of the exact value, relatively. */
  significantDigits?: number;
  /** Default: histogramScale(unit). */
  scale?: number;
}

/** Values are staged in JS and handed to C++ in batches of this many (one native call each). */
const STAGE = 4096;
/** The native histogram refuses a value at or above this once scaled (native/hdr/hdr.h kMaxValue). */
const HDR_LIMIT = 2 ** 62;

export function checkSignificantDigits(digits: unknown, what = 'significant digits'): number {
  if (typeof digits !== 'number' || !Number.isInteger(digits) || digits < MIN_SIGNIFICANT_DIGITS || digits > MAX_SIGNIFICANT_DIGITS) {
    throw new InvalidArgumentError(`${what}: expected an integer from 1 to 5, got ${String(digits)}`);
  }
  return digits;
}

/** One native histogram and its staging buffer. */
class Recorder {
  private readonly stage = new Float64Array(STAGE);
  private staged = 0;
  // Weighted values (addWeighted), allocated on first use.
  private wValues: Float64Array | null = null;
  private wWeights: Float64Array | null = null;
  private wStaged = 0;

  constructor(
    private readonly h: NativeHistogram,
    private readonly scale: number,
  ) {}

  add(value: number): void {
    this.stage[this.staged++] = value;
    if (this.staged === STAGE) this.flush();
  }

  addWeighted(value: number, weight: number): void {
    this.wValues ??= new Float64Array(STAGE);
    this.wWeights ??= new Float64Array(STAGE);
    this.wValues[this.wStaged] = value;
    this.wWeights[this.wStaged++] = weight;
    if (this.wStaged === STAGE) this.flush();
  }

  /** The native histogram with every staged value recorded. */
  get native(): NativeHistogram {
    this.flush();
    return this.h;
  }

  reset(): void {
    this.staged = 0;
    this.wStaged = 0;
    this.h.reset();
  }

  private flush(): void {
    if (this.staged > 0) {
      const n = this.staged;
      this.staged = 0;
      callNative(() => this.h.recordValues(this.stage.subarray(0, n), this.scale));
    }
    if (this.wStaged > 0) {
      const n = this.wStaged;
      this.wStaged = 0;
      callNative(() => this.h.recordWeighted(this.wValues!.subarray(0, n), this.wWeights!.subarray(0, n), this.scale));
    }
  }
}

/** HdrHistogram's rank of percentile p among n values: max(1, ⌈p/100 · n⌉), forgiving a 1-ulp excess. */
function rankOf(p: number, n: number): number {
  const fp = (p / 100) * n;
  const ulp = fp > 0 ? 2 ** (Math.floor(Math.log2(fp)) - 52) : 0;
  return Math.max(Math.ceil(fp - ulp), 1);
}

/**
 * A metric's distribution. The native histogram holds non-negative values only, so negative values
 * (signed metrics such as osl_mismatch_diff_pct) go by add() into a second histogram of their
 * magnitudes, created on the first one; statistics and percentiles join the two exactly as if
 * they were one signed histogram. addAll() records straight into the first: there a negative
 * value is recorded as 0 and counted in `clamped`.
 */
export class MetricHistogram {
  readonly unit: BaseUnit;
  readonly scale: number;
  readonly significantDigits: number;
  private readonly pos: Recorder;
  private neg: Recorder | null = null;
  private skippedValues = 0;

  constructor(unit: BaseUnit, opts: MetricHistogramOptions = {}, from?: { pos: NativeHistogram; neg?: NativeHistogram }) {
    const scale = opts.scale ?? histogramScale(unit);
    if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) {
      throw new InvalidArgumentError(`histogram scale: expected a positive number, got ${String(scale)}`);
    }
    this.unit = unit;
    this.scale = scale;
    const digits = checkSignificantDigits(opts.significantDigits ?? DEFAULT_SIGNIFICANT_DIGITS);
    const h = from?.pos ?? callNative(() => new native.Histogram(digits));
    this.significantDigits = h.significantDigits;
    this.pos = new Recorder(h, scale);
    if (from?.neg) this.neg = new Recorder(from.neg, scale);
  }

  /**
   * Values left out because they could not be recorded: NaN, infinite, or beyond the histogram's
   * range once scaled (2^62). One such value must not cost the run its summary (the caller warns).
   */
  get skipped(): number {
    return this.skippedValues;
  }

  /** Whether `value` can be recorded; counts it in `skipped` when not. */
  private recordable(value: number): boolean {
    if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) * this.scale < HDR_LIMIT) return true;
    this.skippedValues++;
    return false;
  }

  /** Records one value (base units); any sign. An unrecordable one is counted in `skipped`. */
  add(value: number): void {
    if (!this.recordable(value)) return;
    if (value >= 0) this.pos.add(value);
    else this.negative().add(-value);
  }

  /**
   * Records one value (any sign) standing for `weight` observations (a whole number ≥ 0): the
   * count, mean, std and percentiles weigh it that many times (GuideLLM's token weighting).
   */
  addWeighted(value: number, weight: number): void {
    if (!Number.isInteger(weight) || weight < 0 || weight > Number.MAX_SAFE_INTEGER) {
      throw new InvalidArgumentError(`histogram weight: expected a whole number ≥ 0, got ${String(weight)}`);
    }
    if (!this.recordable(value)) return;
    if (value >= 0) this.pos.addWeighted(value, weight);
    else this.negative().addWeighted(-value, weight);
  }

  /**
   * Records a column of non-negative values in one native call. A NaN, an infinity or a value ≥ 2^62
   * after scaling is left out and counted in `skipped` (the native call refuses the whole column, so
   * only then is it filtered). A negative value is recorded as 0 and counted in `clamped` (use add()
   * for signed values).
   */
  addAll(values: Float64Array | BigInt64Array): void {
    try {
      callNative(() => this.pos.native.recordValues(values, this.scale));
    } catch (err) {
      if (!(err instanceof NativeArgumentError)) throw err;
      const keep = new Float64Array(values.length);
      let n = 0;
      for (const v of values) if (this.recordable(Number(v))) keep[n++] = Number(v);
      callNative(() => this.pos.native.recordValues(keep.subarray(0, n), this.scale));
    }
  }

  get count(): number {
    return this.pos.native.count + (this.neg?.native.count ?? 0);
  }

  /** Values recorded as 0 because addAll() met them negative. */
  get clamped(): number {
    return this.pos.native.clamped;
  }

  /** Exact sum of the recorded values (base units), compensated summation. */
  get sum(): number {
    return (this.pos.native.sum - (this.neg?.native.sum ?? 0)) / this.scale;
  }

  /** Exact count, mean, min, max and population std (base units); undefined when empty. */
  moments(): { count: number; avg: number; min: number; max: number; std: number } | undefined {
    const p = this.pos.native;
    const n = this.neg?.native;
    const cp = p.count;
    const cn = n?.count ?? 0;
    const s = this.scale;
    if (!n || cn === 0) return cp === 0 ? undefined : { count: cp, avg: p.mean / s, min: p.min / s, max: p.max / s, std: p.std / s };
    const count = cp + cn;
    // The negatives are stored as magnitudes: their mean is -n.mean, their spread the same.
    const m2 = p.std ** 2 * cp + n.std ** 2 * cn + ((cp * cn) / count) * (p.mean + n.mean) ** 2;
    return {
      count,
      avg: (p.sum - n.sum) / count / s,
      min: -n.max / s,
      max: (cp > 0 ? p.max : -n.min) / s,
      std: Math.sqrt(m2 / count) / s,
    };
  }

  /**
   * HdrHistogram's percentiles (base units): for each p, the value of rank max(1, ⌈p/100 · count⌉)
   * reported as the highest value of its bucket (for a negative value: its most negative), clamped
   * to the exact [min, max]; empty when nothing was recorded.
   */
  percentiles(ps: readonly number[]): number[] {
    for (const p of ps) {
      if (typeof p !== 'number' || !(p >= 0 && p <= 100)) throw new InvalidArgumentError(`percentile: expected 0 to 100, got ${String(p)}`);
    }
    const pos = this.pos.native;
    const neg = this.neg?.native;
    const cp = pos.count;
    const cn = neg?.count ?? 0;
    if (cp + cn === 0) return [];
    if (!neg || cn === 0) return Array.from(pos.valuesAtPercentiles(Float64Array.from(ps)), (v) => v / this.scale);
    // Rank r among all values: the (cn - r + 1)-th largest magnitude when r <= cn, else the
    // (r - cn)-th positive. Each side is asked at a percentile whose own rank is exactly that.
    const out: number[] = [];
    for (const p of ps) {
      const r = rankOf(p, cp + cn);
      if (r <= cn) out.push(-neg.valueAtPercentile((100 * (cn - r + 0.5)) / cn) / this.scale);
      else out.push(pos.valueAtPercentile((100 * (r - cn - 0.5)) / cp) / this.scale);
    }
    return out;
  }

  /**
   * The values of the given ranks (1 = smallest, count = largest), reported as percentiles are:
   * each rank's bucket top (a negative value's most negative), clamped to the exact [min, max].
   * Empty when nothing was recorded; a rank outside [1, count] is a caller bug and throws.
   */
  valuesAtRanks(ranks: readonly number[]): number[] {
    const n = this.count;
    if (n === 0) return [];
    for (const k of ranks) {
      if (!Number.isInteger(k) || k < 1 || k > n)
        throw new InvalidArgumentError(`rank: expected an integer from 1 to ${n}, got ${String(k)}`);
    }
    // The percentile whose nearest rank is exactly k: k - 1/2 of n, away from both neighbours.
    return this.percentiles(ranks.map((k) => (100 * (k - 0.5)) / n));
  }

  /**
   * The mode at the histogram's resolution: the median-equivalent value of the most populated
   * bucket (the lowest on ties), in base units; undefined when empty. Below 2 · 10^digits (scaled)
   * buckets are one unit wide, so it is the exact most frequent value there.
   */
  mode(): number | undefined {
    const p = this.pos.native.mode();
    const n = this.neg?.native.mode() ?? { value: 0, count: 0 };
    if (p.count === 0 && n.count === 0) return undefined;
    // On a tie the negative side holds the lower value.
    return n.count >= p.count ? -n.value / this.scale : p.value / this.scale;
  }

  /** Adds other's values; both must have the same unit scale and significant digits. */
  merge(other: MetricHistogram): void {
    if (other.scale !== this.scale || other.significantDigits !== this.significantDigits) {
      throw new InvalidArgumentError(
        `cannot merge histograms of scale ${other.scale} and ${other.significantDigits} digits into scale ${this.scale} and ${this.significantDigits} digits`,
      );
    }
    callNative(() => {
      this.pos.native.merge(other.pos.native);
      if (other.neg) this.negative().native.merge(other.neg.native);
    });
  }

  reset(): void {
    this.pos.reset();
    this.neg?.reset();
  }

  /** The histograms.json entry. */
  toExport(): HistogramExport {
    const e: HistogramExport = { unit: this.unit, scale: this.scale, encoded: encodeCompressed(this.pos.native) };
    if (this.neg && this.neg.native.count > 0) e.encoded_negative = encodeCompressed(this.neg.native);
    return e;
  }

  /** A histogram read back from its export; its statistics are then estimated from the buckets. */
  static fromExport(e: HistogramExport): MetricHistogram {
    const pos = decodeCompressed(e.encoded);
    const neg = e.encoded_negative === undefined ? undefined : decodeCompressed(e.encoded_negative);
    return new MetricHistogram(e.unit, { scale: e.scale }, { pos, neg });
  }

  private negative(): Recorder {
    this.neg ??= new Recorder(
      callNative(() => new native.Histogram(this.significantDigits)),
      this.scale,
    );
    return this.neg;
  }
}
