// The recommender's decaying histogram: exponential buckets (each 5% wider than the last), samples
// weighted by 2^(age/halfLife) relative to a reference time, so old samples fade; percentiles return
// the end of the bucket that crosses the threshold, as upstream.
// Upstream: vertical-pod-autoscaler/pkg/recommender/util/{histogram,histogram_options,decaying_histogram}.go.
//
// Example (CPU options: first bucket 0.01 cores, ratio 1.05; bucket n starts at 0.2 * (1.05^n - 1)):
// a steady 0.2 cores falls into bucket 14, which spans [0.1960, 0.2158); so p50 = p90 = 0.2158 cores.

export interface HistogramOptions {
  firstBucketSize: number;
  ratio: number;
  numBuckets: number;
}

export function exponentialOptions(maxValue: number, firstBucketSize: number, ratio: number): HistogramOptions {
  const numBuckets = Math.ceil(Math.log((maxValue * (ratio - 1)) / firstBucketSize + 1) / Math.log(ratio)) + 1;
  return { firstBucketSize, ratio, numBuckets };
}

/** Cores: 0.01 to 1000, growing 5%. */
export const cpuHistogramOptions = exponentialOptions(1000, 0.01, 1.05);
/** Bytes: 1e7 to 1e12, growing 5%. */
export const memoryHistogramOptions = exponentialOptions(1e12, 1e7, 1.05);

export function bucketStart(o: HistogramOptions, bucket: number): number {
  return (o.firstBucketSize * (Math.pow(o.ratio, bucket) - 1)) / (o.ratio - 1);
}

export function findBucket(o: HistogramOptions, value: number): number {
  if (value < o.firstBucketSize) return 0;
  let bucket = Math.floor(Math.log((value * (o.ratio - 1)) / o.firstBucketSize + 1) / Math.log(o.ratio));
  // Floating point: a value at a bucket's exact start may land one below.
  if (bucket + 1 < o.numBuckets && value >= bucketStart(o, bucket + 1)) bucket++;
  return Math.min(Math.max(bucket, 0), o.numBuckets - 1);
}

export const dayMs = 24 * 3600_000;
// Past this exponent the weights are renormalised to a later reference time (upstream: 100).
const maxDecayExponent = 100;

export class DecayingHistogram {
  readonly #o: HistogramOptions;
  readonly #halfLifeMs: number;
  readonly #weights: Float64Array;
  #total = 0;
  #reference = 0;

  constructor(options: HistogramOptions, halfLifeMs: number) {
    this.#o = options;
    this.#halfLifeMs = halfLifeMs;
    this.#weights = new Float64Array(options.numBuckets);
  }

  addSample(value: number, weight: number, at: number): void {
    this.#add(value, weight * this.#decayFactor(at));
  }

  /** Takes back a sample added earlier (a memory peak replaced by a higher one in the same interval). */
  subtractSample(value: number, weight: number, at: number): void {
    this.#add(value, -weight * this.#decayFactor(at));
  }

  isEmpty(): boolean {
    return this.#total <= 0;
  }

  percentile(p: number): number {
    if (this.isEmpty()) return 0;
    const threshold = p * this.#total;
    let sum = 0;
    let bucket = 0;
    for (; bucket < this.#o.numBuckets - 1; bucket++) {
      sum += this.#weights[bucket] ?? 0;
      if (sum >= threshold) break;
    }
    return bucket < this.#o.numBuckets - 1 ? bucketStart(this.#o, bucket + 1) : bucketStart(this.#o, bucket);
  }

  #add(value: number, weight: number): void {
    const b = findBucket(this.#o, value);
    const next = (this.#weights[b] ?? 0) + weight;
    this.#weights[b] = next < 0 ? 0 : next;
    this.#total = Math.max(0, this.#total + weight);
  }

  #decayFactor(at: number): number {
    const exponent = (at - this.#reference) / this.#halfLifeMs;
    if (exponent > maxDecayExponent) {
      // Shift the reference so the weights stay finite; relative weights are unchanged.
      const shift = Math.pow(2, -exponent);
      for (let i = 0; i < this.#weights.length; i++) this.#weights[i] = (this.#weights[i] ?? 0) * shift;
      this.#total *= shift;
      this.#reference = at;
      return 1;
    }
    return Math.pow(2, exponent);
  }
}
