// Go's fmt `%v` and reflect type names for decoded JSON, so patch errors read as
// upstream's do (`map: map[image:nginx] does not contain declared merge key: name`).
// Upstream: Go fmt (maps print with sorted keys) and apimachinery/pkg/util/mergepatch/errors.go.

/** `fmt.Sprintf("%v", v)` for a value decoded from JSON with ints preserved. */
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

function goNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  // %v of a float64 is %g: exponent form outside [1e-4, 1e21).
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e21)) {
    const [mant, exp] = n.toExponential().split('e');
    const e = Number(exp);
    return `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return String(n);
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
