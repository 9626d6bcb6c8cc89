// A Prometheus histogram and counter for what is observed on every request and storage call:
// prom-client's validate and hash a label object on each observation (~40% of the cost of timing a
// store call; with the request metrics' nine labels, 3% of a pod create). These take the label values
// in their declared order and find the series through a map per label. Registered in a prom-client
// Registry, they render as its own do.
import type { Registry } from 'prom-client';

interface Series {
  labels: Record<string, string>;
  /** Per bucket, not cumulative; the last one is +Inf (histograms only). */
  counts: number[];
  sum: number;
  count: number;
}

interface ExportedValue {
  labels: Record<string, string | number>;
  /** Rendered after `labels`, as prom-client's histogram puts `le` before the series' labels. */
  sharedLabels?: Record<string, string>;
  value: number;
  metricName?: string;
}

type SeriesTree = Map<string, SeriesTree | Series>;

/** The series of each distinct list of label values, in the order first seen (as prom-client lists them). */
class SeriesIndex {
  readonly #labelNames: readonly string[];
  readonly #buckets: number;
  #root: SeriesTree = new Map();
  ordered: Series[] = [];

  constructor(labelNames: readonly string[], buckets: number) {
    this.#labelNames = labelNames;
    this.#buckets = buckets;
  }

  series(values: readonly string[]): Series {
    let node = this.#root;
    const last = this.#labelNames.length - 1;
    for (let i = 0; i < last; i++) {
      const value = values[i] ?? '';
      let next = node.get(value) as SeriesTree | undefined;
      if (next === undefined) node.set(value, (next = new Map()));
      node = next;
    }
    const leaf = values[last] ?? '';
    let series = node.get(leaf) as Series | undefined;
    if (series === undefined) {
      const labels: Record<string, string> = {};
      this.#labelNames.forEach((name, i) => (labels[name] = values[i] ?? ''));
      series = { labels, counts: new Array<number>(this.#buckets).fill(0), sum: 0, count: 0 };
      node.set(leaf, series);
      this.ordered.push(series);
    }
    return series;
  }

  reset(): void {
    this.#root = new Map();
    this.ordered = [];
  }
}

// A registry takes any object with a name and get(): the shape prom-client's own metrics have.
function register(registry: Registry, metric: object): void {
  registry.registerMetric(metric as Parameters<Registry['registerMetric']>[0]);
}

export class LatencyHistogram {
  readonly type = 'histogram';
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly buckets: readonly number[];
  readonly #series: SeriesIndex;

  constructor(options: { name: string; help: string; labelNames: readonly string[]; buckets: readonly number[]; registry: Registry }) {
    ({ name: this.name, help: this.help, labelNames: this.labelNames, buckets: this.buckets } = options);
    this.#series = new SeriesIndex(this.labelNames, this.buckets.length + 1);
    register(options.registry, this);
  }

  /** `values` in the order of labelNames. */
  observe(values: readonly string[], value: number): void {
    const series = this.#series.series(values);
    let i = 0;
    while (i < this.buckets.length && value > (this.buckets[i] as number)) i++;
    series.counts[i] = (series.counts[i] ?? 0) + 1;
    series.sum += value;
    series.count += 1;
  }

  reset(): void {
    this.#series.reset();
  }

  /** prom-client's export form: cumulative `_bucket` lines with `le`, then `_sum` and `_count`. */
  get(): { name: string; help: string; type: string; values: ExportedValue[]; aggregator: string } {
    const values: ExportedValue[] = [];
    for (const s of this.#series.ordered) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += s.counts[i] ?? 0;
        values.push({ labels: { le }, sharedLabels: s.labels, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
  }
}

export class LabeledCounter {
  readonly type = 'counter';
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly #series: SeriesIndex;

  constructor(options: { name: string; help: string; labelNames: readonly string[]; registry: Registry }) {
    ({ name: this.name, help: this.help, labelNames: this.labelNames } = options);
    this.#series = new SeriesIndex(this.labelNames, 0);
    register(options.registry, this);
  }

  /** `values` in the order of labelNames. */
  inc(values: readonly string[], by = 1): void {
    this.#series.series(values).count += by;
  }

  reset(): void {
    this.#series.reset();
  }

  get(): { name: string; help: string; type: string; values: ExportedValue[]; aggregator: string } {
    return { name: this.name, help: this.help, type: this.type, values: this.#series.ordered.map((s) => ({ labels: s.labels, value: s.count })), aggregator: 'sum' };
  }
}
