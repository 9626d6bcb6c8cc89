// Go's fmt `%v` and reflect type names for decoded JSON, so patch errors read as
// upstream's do (`map: map[image:nginx] does not contain declared merge key: name`).
// Upstream: Go fmt (maps print with sorted keys) and apimachinery/pkg/util/mergepatch/errors.go.
import { formatFloatG } from '../../core/index.ts';

/**
 * `fmt.Sprintf("%v", v)` for a value decoded from JSON with ints preserved (a patch's value in its errors,
 * a custom resource's field in a printer column or a selectable field).
 */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (typeof v === 'object') {
    const entries = Object.keys(v).sort().map((k) => `${k}:${goValue((v as Record<string, unknown>)[k])}`);
    return `map[${entries.join(' ')}]`;
  }
  return String(v);
}

/** `fmt.Sprintf("%#v", v)`: Go syntax, as structured-merge-diff prints a mistyped value. */
export function goSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  if (typeof v === 'object') {
    const entries = Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${goSyntax((v as Record<string, unknown>)[k])}`);
    return `map[string]interface {}{${entries.join(', ')}}`;
  }
  return String(v);
}

/** A decoded JSON number as %v prints it: an int64 whole, a float64 in %g's shortest form (1.2345675e+06). */
function goNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : formatFloatG(n);
}

/** `reflect.TypeOf(v).String()` as `%s` prints it. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}
