// Go's strconv.FormatFloat(v, 'g', -1, 64), the text a Go program gives a float64 in Prometheus
// exposition and CEL's string(double): shortest digits, exponent form below 1e-4 and from 1e6.

export function formatFloatG(v: number): string {
  if (v === 0 || !Number.isFinite(v)) return v === 0 ? '0' : Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
  const [mantissa = '', exponent = '0'] = v.toExponential().split('e');
  const exp = Number(exponent);
  if (exp >= -4 && exp < 6) return String(v);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}
