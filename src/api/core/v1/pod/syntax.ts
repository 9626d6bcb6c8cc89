// Name and value syntax checks with upstream's exact messages, returning the messages (callers wrap them
// in field errors, as upstream's validation.IsXxx helpers do).
// Upstream: apimachinery/pkg/util/validation/validation.go.

function regexError(msg: string, regex: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${regex}')`;
  let s = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) s += ' or ';
    s += `'${ex}', `;
  });
  return `${s}regex used for validation is '${regex}')`;
}

const maxLen = (n: number): string => `must be no more than ${n} characters`;

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);
const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueRe = new RegExp(`^${labelValueFmt}$`);

export function isDNS1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!dns1123LabelRe.test(v)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        dns1123LabelFmt,
        'my-name',
        '123-abc',
      ),
    );
  }
  return errs;
}

export function isDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLen(253));
  if (!dns1123SubdomainRe.test(v)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        dns1123SubdomainFmt,
        'example.com',
      ),
    );
  }
  return errs;
}

export function isQualifiedName(v: string): string[] {
  const errs: string[] = [];
  const parts = v.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0] ?? '';
  else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [
      `${regexError("a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", qualifiedNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push(`name part ${maxLen(63)}`);
  if (!qualifiedNameRe.test(name)) {
    errs.push(
      `name part ${regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`,
    );
  }
  return errs;
}

export function isValidLabelValue(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!labelValueRe.test(v)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        labelValueFmt,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

/** RelaxedEnvironmentVariableValidation is GA in 1.34. */
export function isRelaxedEnvVarName(v: string): string[] {
  for (const ch of v) {
    const c = ch.codePointAt(0) ?? 0;
    if (c > 126 || c < 32 || ch === '=') return ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
  }
  return [];
}

export function isValidPortNum(p: number): string[] {
  return Number.isInteger(p) && p >= 1 && p <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

export function isValidPortName(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push(maxLen(15));
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens (-)');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen (-)');
  return errs;
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}
