// A custom resource's table cell for one additionalPrinterColumn: the first value its JSONPath
// finds, converted to the column's type. A string column prints the value as kubectl's JSONPath
// does (JSON for maps and lists); the other types take only a value of their own JSON type.
// Upstream: apiextensions-apiserver/pkg/registry/customresource/tableconvertor/tableconvertor.go
// (ConvertToTable, cellForJSONValue), client-go/util/jsonpath/jsonpath.go (PrintResults, evalToText).
import { humanDuration } from '../../core/index.ts';
import { goValue } from '../patch/go-format.ts';

/** The cell for `results` (a JSONPath's matches in order); null prints as `<none>`. */
export function columnCell(type: string, results: readonly unknown[], now: number): unknown {
  if (results.length === 0) return null;
  const value = results[0];
  if (type === 'string') return printJsonPathValue(value);
  if (value === null || value === undefined) return null;
  switch (type) {
    // Decoded JSON holds an int64 or a float64; a float64 converts to int64 by truncation.
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? dateCell(value, now) : null;
    default:
      return null;
  }
}

/** jsonpath's PrintResults of one value: JSON for a map or list, fmt's %v of anything else. */
function printJsonPathValue(value: unknown): string {
  if (typeof value === 'object' && value !== null) return goJson(value);
  // A null is a nil interface, which text/template prints as "<no value>".
  if (value === null || value === undefined) return '<no value>';
  if (typeof value === 'number') return goValue(value);
  return String(value);
}

/** metav1.Time's UnmarshalQueryParameter, then ConvertToHumanReadableDateType. */
function dateCell(text: string, now: number): string {
  if (text === '' || text === 'null') return '<unknown>';
  const at = parseRfc3339(text);
  return at === undefined ? '<invalid>' : humanDuration(now - at);
}

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;

/** time.Parse(time.RFC3339, text) in epoch milliseconds, or undefined where Go refuses it. */
export function parseRfc3339(text: string): number | undefined {
  const m = rfc3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  const offsetHours = Number(m[9] ?? 0);
  const offsetMinutes = Number(m[10] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const sign = m[8]?.startsWith('-') ? -1 : 1;
  const fraction = m[7] ? Number(`0${m[7]}`) * 1000 : 0;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second) + fraction;
  return utc - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}

/** encoding/json's Marshal of decoded JSON: map keys sorted, HTML characters escaped. */
export function goJson(value: unknown): string {
  return marshal(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function marshal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(marshal).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = value as Record<string, unknown>;
    const keys = Object.keys(fields).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${marshal(fields[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
