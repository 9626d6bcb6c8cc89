// Prints benchmark results as an aligned text table.
export interface Row {
  [column: string]: string | number;
}

export function printTable(title: string, rows: readonly Row[]): void {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: string | number | undefined): string => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : (v ?? ''));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]): string => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  process.stdout.write(`\n${title}\n${line(columns)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const r of rows) process.stdout.write(`${line(columns.map((c) => cell(r[c])))}\n`);
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}
