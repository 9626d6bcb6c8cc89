// The Prometheus text format as the kubelet's Go registry writes it: families in name order, each series'
// labels in name order and the series sorted by them, numbers as strconv 'g' writes them, a labelled family
// without series left out. Counters and histograms that components keep as things happen live here too.
// Upstream: prometheus/client_golang (registry.go Gather, internal/metric.go), prometheus/common expfmt
// (text_create.go), k8s.io/component-base/metrics (the "[ALPHA] " prefix of a help text).
import { formatFloatG } from '../core/index.ts';

export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  labels: Labels;
  value: number;
  /** Milliseconds since the epoch, written after the value (the resource metrics' sample time). */
  timestamp?: number;
}

export interface HistogramSeries {
  labels: Labels;
  /** Observations at or below each bound, not cumulative; one more for +Inf. */
  counts: readonly number[];
  sum: number;
  count: number;
}

export type StabilityLevel = 'ALPHA' | 'BETA' | 'STABLE';

export type Family =
  | { name: string; help: string; stability: StabilityLevel; type: 'counter' | 'gauge'; samples: readonly Sample[] }
  | { name: string; help: string; stability: StabilityLevel; type: 'histogram'; buckets: readonly number[]; series: readonly HistogramSeries[] };

const escapeLabel = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

function labelText(labels: Labels, extra?: [string, string]): string {
  const pairs = Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (extra) pairs.push(extra);
  return pairs.length === 0 ? '' : `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

/** The series' order: label values compared pair by pair, labels in name order (metricSorter). */
function sortKey(labels: Labels): string {
  return Object.keys(labels).sort().map((k) => labels[k]).join('\u0000');
}

function sortedBy<T extends { labels: Labels }>(items: readonly T[]): T[] {
  return items.map((item) => ({ item, key: sortKey(item.labels) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((x) => x.item);
}

function familyText(f: Family): string {
  let out = `# HELP ${f.name} [${f.stability}] ${escapeHelp(f.help)}\n# TYPE ${f.name} ${f.type}\n`;
  if (f.type !== 'histogram') {
    for (const s of sortedBy(f.samples)) out += `${f.name}${labelText(s.labels)} ${formatFloatG(s.value)}${s.timestamp !== undefined ? ` ${s.timestamp}` : ''}\n`;
    return out;
  }
  for (const s of sortedBy(f.series)) {
    let cumulative = 0;
    f.buckets.forEach((le, i) => {
      cumulative += s.counts[i] ?? 0;
      out += `${f.name}_bucket${labelText(s.labels, ['le', formatFloatG(le)])} ${cumulative}\n`;
    });
    out += `${f.name}_bucket${labelText(s.labels, ['le', '+Inf'])} ${s.count}\n`;
    out += `${f.name}_sum${labelText(s.labels)} ${formatFloatG(s.sum)}\n${f.name}_count${labelText(s.labels)} ${s.count}\n`;
  }
  return out;
}

/** The exposition text of `families`: a family with no series is left out, as the Go registry gathers none for it. */
export function expositionText(families: readonly Family[]): string {
  const present = families.filter((f) => (f.type === 'histogram' ? f.series.length : f.samples.length) > 0);
  present.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return present.map(familyText).join('');
}

/** A counter vector: one value per distinct list of label values. */
export class CounterVec {
  readonly #labelNames: readonly string[];
  // Made at the first series: a node's kubelet keeps a dozen vectors, most of them never used.
  #series: Map<string, { labels: Labels; value: number }> | undefined;

  constructor(labelNames: readonly string[]) {
    this.#labelNames = labelNames;
  }

  /** `values` in the order of the label names. */
  inc(values: readonly string[] = [], by = 1): void {
    const key = values.join('\u0000');
    this.#series ??= new Map();
    const series = this.#series.get(key);
    if (series) series.value += by;
    else this.#series.set(key, { labels: Object.fromEntries(this.#labelNames.map((n, i) => [n, values[i] ?? ''])), value: by });
  }

  samples(): Sample[] {
    return [...(this.#series?.values() ?? [])];
  }
}

/** A histogram vector with fixed bucket bounds. */
export class HistogramVec {
  readonly buckets: readonly number[];
  readonly #labelNames: readonly string[];
  #series: Map<string, { labels: Labels; counts: number[]; sum: number; count: number }> | undefined;

  constructor(labelNames: readonly string[], buckets: readonly number[]) {
    this.#labelNames = labelNames;
    this.buckets = buckets;
  }

  observe(values: readonly string[], value: number): void {
    const key = values.join('\u0000');
    this.#series ??= new Map();
    let series = this.#series.get(key);
    if (!series) {
      series = { labels: Object.fromEntries(this.#labelNames.map((n, i) => [n, values[i] ?? ''])), counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    let i = 0;
    while (i < this.buckets.length && value > (this.buckets[i] as number)) i++;
    series.counts[i] = (series.counts[i] ?? 0) + 1;
    series.sum += value;
    series.count += 1;
  }

  series(): HistogramSeries[] {
    return [...(this.#series?.values() ?? [])];
  }
}
