// fmt's %v of a decoded JSON value, as upstream prints a custom resource's field (a printer column's
// string cell, a selectable field's value): JSON integers decode to int64, other numbers to float64.
import { formatFloatG } from '../../core/index.ts';

export function goSprint(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatFloatG(value);
  if (Array.isArray(value)) return `[${value.map(goSprint).join(' ')}]`;
  if (typeof value === 'object') {
    return `map[${Object.keys(value).sort().map((k) => `${k}:${goSprint((value as Record<string, unknown>)[k])}`).join(' ')}]`;
  }
  return String(value);
}
