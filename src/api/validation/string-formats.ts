// The string formats a CRD schema's `format` validates (kube-openapi's strfmt registry, as apiextensions
// keeps them: the formats of 1.16 and, from 1.34, k8s-short-name and k8s-long-name; any other format is
// ignored) and the parsers behind the CEL Format library and the typed values CEL sees (date, date-time,
// duration). Each check is the Go function strfmt registers, transcribed.
// Upstream: apiextensions-apiserver/pkg/apiserver/validation/formats.go, kube-openapi/pkg/validation/strfmt
// (default.go, date.go, time.go, duration.go, kubernetes-extensions.go, bson.go), asaskevich/govalidator.
import { parseIP, parsePrefix } from '../../core/index.ts';
import { requestURIError } from '../cel-network.ts';
import { isDNS1123Subdomain, isValidDNS1123Label } from './names.ts';

/** time.Parse("2006-01-02", s): four-digit year, a real month and a day that exists in it. */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const dateTimeTime = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;

/** strfmt.IsDateTime: a date, `T`, then hh:mm:ss, a fraction and `Z` or an offset (either case). */
export function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0] ?? '')) return false;
  const m = dateTimeTime.exec(parts[1] ?? '');
  return m !== null && (m[1] ?? '') <= '23' && (m[2] ?? '') <= '59' && (m[3] ?? '') <= '59';
}

const goDurationUnits: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** time.ParseDuration: milliseconds, or undefined. */
export function goDuration(s: string): number | undefined {
  const m = /^([-+]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+|0)$/.exec(s);
  if (!m) return undefined;
  let total = 0;
  for (const [, value, unit] of (m[2] ?? '').matchAll(/(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) total += Number(value) * (goDurationUnits[unit ?? ''] ?? 0);
  return m[1] === '-' ? -total : total;
}

// strfmt's "scala" units: each row's first spelling names the multiplier; the last is also a prefix.
const scalaUnits: readonly [readonly string[], number][] = [
  [['ns', 'nano'], 1e-6],
  [['us', 'µs', 'micro'], 1e-3],
  [['ms', 'milli'], 1],
  [['s', 'sec'], 1000],
  [['m', 'min'], 60_000],
  [['h', 'hr', 'hour'], 3_600_000],
  [['d', 'day'], 86_400_000],
  [['w', 'wk', 'week'], 604_800_000],
];

/** strfmt.ParseDuration: Go's syntax, else amounts with units (`3 days`, `1h 30min`); milliseconds. */
export function parseFormatDuration(s: string): number | undefined {
  const go = goDuration(s);
  if (go !== undefined) return go;
  if (!/^\s*(?:\d+\s*[A-Za-zµ]+\s*)+$/.test(s)) return undefined;
  let total = 0;
  let matched = false;
  for (const [, amount, rawUnit] of s.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    const unit = (rawUnit ?? '').trim().toLowerCase();
    for (const [variants, multiplier] of scalaUnits) {
      variants.forEach((variant, i) => {
        if ((i === variants.length - 1 && unit.startsWith(variant)) || variant === unit) {
          matched = true;
          total += Number(amount) * multiplier;
        }
      });
    }
  }
  return matched ? total : undefined;
}

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
export const isBase64 = (s: string): boolean => base64.test(s);

const uuid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
export const isUUID = (s: string): boolean => uuid.test(s);

const hostnamePattern =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z0-9\p{S}\p{L}])(-?[a-zA-Z0-9\p{S}\p{L}]){1,62})$/u;

function isHostname(s: string): boolean {
  return hostnamePattern.test(s) && Buffer.byteLength(s) <= 255 && s.split('.').every((label) => Buffer.byteLength(label) <= 63);
}

/** net.ParseMAC: 6, 8 or 20 octets as xx:xx.., xx-xx.. or xxxx.xxxx... */
function isMAC(s: string): boolean {
  const octets = (n: number): boolean => [6, 8, 20].includes(n);
  if (/^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2})+$/.test(s)) return octets((s.length + 1) / 3);
  if (/^[0-9a-fA-F]{2}(-[0-9a-fA-F]{2})+$/.test(s)) return octets((s.length + 1) / 3);
  if (/^[0-9a-fA-F]{4}(\.[0-9a-fA-F]{4})+$/.test(s)) return octets(((s.length + 1) / 5) * 2);
  return false;
}

/**
 * net/mail.ParseAddress for the forms CRDs meet: `local@domain` or `Name <local@domain>`, the local part
 * dot-atoms or a quoted string, the domain dot-atoms or a literal in brackets.
 */
function isEmail(s: string): boolean {
  const atom = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
  const dotAtom = `${atom}(?:\\.${atom})*`;
  const addrSpec = `(?:${dotAtom}|"(?:[^"\\\\]|\\\\.)*")@(?:${dotAtom}|\\[[^\\[\\]\\\\]*\\])`;
  return new RegExp(`^\\s*(?:${addrSpec}|(?:[^<>]*|"[^"]*")\\s*<${addrSpec}>)\\s*$`).test(s);
}

const digitsOnly = (s: string): string => s.replace(/[^0-9]/g, '');

function isISBN(s: string, version: 10 | 13): boolean {
  const sanitized = s.replace(/[\s-]+/g, '');
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(sanitized)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * Number(sanitized[i]);
    sum += sanitized[9] === 'X' ? 100 : 10 * Number(sanitized[9]);
    return sum % 11 === 0;
  }
  if (!/^[0-9]{13}$/.test(sanitized)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(sanitized[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(sanitized[12]);
}

/** govalidator.IsCreditCard: the digits (anything else dropped) match a card pattern and pass Luhn. */
function isCreditCard(s: string): boolean {
  const digits = digitsOnly(s);
  if (!/^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/.test(digits)) return false;
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = Number(digits[i]);
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

const byte255 = '(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])';
const rgbColor = new RegExp(`^rgb\\(\\s*${byte255}\\s*,\\s*${byte255}\\s*,\\s*${byte255}\\s*\\)$`);

const checks = (): Record<string, (s: string) => boolean> => ({
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: (s) => requestURIError(s) === undefined,
  email: isEmail,
  hostname: isHostname,
  ipv4: (s) => parseIP(s)?.family === 4 && s.includes('.'),
  ipv6: (s) => parseIP(s) !== undefined && s.includes(':'),
  cidr: (s) => parsePrefix(s) !== undefined,
  mac: isMAC,
  uuid: isUUID,
  uuid3: (s) => uuid3.test(s),
  uuid4: (s) => uuid4.test(s),
  uuid5: (s) => uuid5.test(s),
  isbn: (s) => isISBN(s, 10) || isISBN(s, 13),
  isbn10: (s) => isISBN(s, 10),
  isbn13: (s) => isISBN(s, 13),
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) => rgbColor.test(s),
  byte: isBase64,
  password: () => true,
  date: isDate,
  duration: (s) => parseFormatDuration(s) !== undefined,
  datetime: isDateTime,
  // k8s-short-name and k8s-long-name are an RFC 1123 label and subdomain, as Kubernetes names check them.
  k8sshortname: isValidDNS1123Label,
  k8slongname: (s) => isDNS1123Subdomain(s).length === 0,
});

let known: Record<string, (s: string) => boolean> | undefined;

/**
 * The check a string schema's `format` makes, or undefined for a format apiextensions drops (any name
 * it does not know, with go-openapi's normalization: `date-time` is `datetime`).
 */
export function stringFormatCheck(format: string): ((s: string) => boolean) | undefined {
  known ??= checks();
  const normalized = format.replaceAll('-', '');
  return Object.hasOwn(known, normalized) ? known[normalized] : undefined;
}
