// Go's time.Parse(time.RFC3339, text) for query parameters (metav1.Time.UnmarshalQueryParameter):
// the instant in ms, or the ParseError text Go gives, element by element along the layout.
// Upstream: go/src/time/format.go (parse, ParseError.Error, quote).

const layout = '2006-01-02T15:04:05Z07:00';

export type Rfc3339 = { ok: true; ms: number } | { ok: false; message: string };

/** time.quote: ASCII as is (with `"` and `\` escaped), every other byte as \xNN. */
function quote(s: string): string {
  let out = '"';
  for (const byte of Buffer.from(s, 'utf8')) {
    if (byte < 0x20 || byte >= 0x80) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    else {
      const c = String.fromCharCode(byte);
      out += c === '"' || c === '\\' ? `\\${c}` : c;
    }
  }
  return `${out}"`;
}

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** getnum: one or two digits; `fixed` wants two. */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : { n: Number(s[0]), rest: s.slice(1) };
  return { n: Number(s.slice(0, 2)), rest: s.slice(2) };
}

const daysIn = (month: number, year: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

export function parseRfc3339(text: string): Rfc3339 {
  const cannot = (value: string, element: string): Rfc3339 => ({ ok: false, message: `parsing time ${quote(text)} as ${quote(layout)}: cannot parse ${quote(value)} as ${quote(element)}` });
  const outOfRange = (what: string): Rfc3339 => ({ ok: false, message: `parsing time ${quote(text)}: ${what} out of range` });
  let value = text;
  const skip = (prefix: string): boolean => {
    if (!value.startsWith(prefix)) return false;
    value = value.slice(prefix.length);
    return true;
  };
  if (value.length < 4 || !/^\d{4}/.test(value)) return cannot(value, '2006');
  const year = Number(value.slice(0, 4));
  value = value.slice(4);
  const fields: { prefix: string; element: string; fixed: boolean; max: number; name: string }[] = [
    { prefix: '-', element: '01', fixed: true, max: 12, name: 'month' },
    { prefix: '-', element: '02', fixed: true, max: 31, name: '' },
    { prefix: 'T', element: '15', fixed: false, max: 23, name: 'hour' },
    { prefix: ':', element: '04', fixed: true, max: 59, name: 'minute' },
    { prefix: ':', element: '05', fixed: true, max: 59, name: 'second' },
  ];
  const n: number[] = [];
  for (const f of fields) {
    const before = value;
    if (!skip(f.prefix)) return cannot(before, f.prefix);
    const hold = value;
    const got = getnum(value, f.fixed);
    if (!got) return cannot(hold, f.element);
    value = got.rest;
    if (f.name === 'month' && (got.n < 1 || got.n > 12)) return outOfRange('month');
    if (f.name && f.name !== 'month' && got.n > f.max) return outOfRange(f.name);
    n.push(got.n);
  }
  let fractionMs = 0;
  const fraction = /^[.,](\d+)/.exec(value);
  if (fraction?.[1]) {
    fractionMs = Number(`0.${fraction[1]}`) * 1000;
    value = value.slice(fraction[0].length);
  }
  let offsetMinutes = 0;
  if (value.startsWith('Z')) value = value.slice(1);
  else {
    const zone = /^([+-])(\d\d):(\d\d)/.exec(value);
    if (!zone) return cannot(value, 'Z07:00');
    offsetMinutes = (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3]));
    value = value.slice(6);
  }
  if (value.length > 0) return { ok: false, message: `parsing time ${quote(text)}: extra text: ${quote(value)}` };
  const [month = 1, day = 1, hour = 0, minute = 0, second = 0] = n;
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');
  return { ok: true, ms: Date.UTC(year, month - 1, day, hour, minute, second) + Math.floor(fractionMs) - offsetMinutes * 60_000 };
}
