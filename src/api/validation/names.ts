// Format checks for names, label keys and values, with upstream's exact messages.
// Upstream: apimachinery/pkg/util/validation/validation.go, pkg/api/validate/content/{dns,kube,identifier}.go,
// pkg/api/validation/generic.go, pkg/apis/meta/v1/validation/validation.go (ValidateLabels).

import {
  dns1123SubdomainFmt,
  invalidValue,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maxLenError,
  regexError,
  scansAsDNS1123,
  tooLong,
  type FieldError,
  type FieldPath,
} from '../../core/index.ts';

// The label-key syntax lives in core (label selectors need it); re-exported so validation code
// finds every format check here.
export { isDNS1123Subdomain, isQualifiedName, isValidLabelValue, maxLenError, regexError };

/** Go's len(): byte length, not UTF-16 units. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

export function emptyError(): string {
  return 'must be non-empty';
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

const anchored = (fmt: string): RegExp => new RegExp(`^(?:${fmt})$`);

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const dns1123LabelRe = anchored(dns1123LabelFmt);
const dns1123SubdomainRe = anchored(dns1123SubdomainFmt);
const dns1035LabelRe = anchored(dns1035LabelFmt);

export const DNS1123LabelMaxLength = 63;
export const DNS1123SubdomainMaxLength = 253;
export const DNS1035LabelMaxLength = 63;
export const LabelValueMaxLength = 63;

/** isDNS1123Label(value) finds nothing wrong, without building messages: a slice's thousands of counter names. */
export function isValidDNS1123Label(value: string): boolean {
  return value.length <= DNS1123LabelMaxLength && scansAsDNS1123(value, false);
}

export function isDNS1123Label(given: string): string[] {
  const value = given ?? '';
  if (isValidDNS1123Label(value)) return [];
  const errs: string[] = [];
  if (byteLength(value) > DNS1123LabelMaxLength) errs.push(maxLenError(DNS1123LabelMaxLength));
  if (!dns1123LabelRe.test(value)) {
    // A valid subdomain that is not a label can only be failing on its dots.
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1035Label(given: string): string[] {
  const value = given ?? '';
  const errs: string[] = [];
  if (byteLength(value) > DNS1035LabelMaxLength) errs.push(maxLenError(DNS1035LabelMaxLength));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';
const cIdentifierRe = anchored(cIdentifierFmt);
export function isCIdentifier(value: string): string[] {
  if (cIdentifierRe.test(value)) return [];
  return [
    regexError(
      "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'",
      cIdentifierFmt,
      'my_name',
      'MY_NAME',
      'MyName',
    ),
  ];
}

export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

export function isInRange(value: number, min: number, max: number): string[] {
  return value >= min && value <= max ? [] : [inclusiveRangeError(min, max)];
}

export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLength(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return [`must not be '.'`];
  if (value === '..') return [`must not be '..'`];
  if (value.startsWith('..')) return [`must not start with '..'`];
  return [];
}

const envVarNameFmt = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const envVarNameRe = anchored(envVarNameFmt);
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!envVarNameRe.test(value)) {
    errs.push(
      regexError(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
        envVarNameFmt,
        'my.env-name',
        'MY_ENV.NAME',
        'MyEnvName1',
      ),
    );
  }
  return [...errs, ...hasChDirPrefix(value)];
}

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyRe = anchored(configMapKeyFmt);
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!configMapKeyRe.test(value)) {
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  }
  return [...errs, ...hasChDirPrefix(value)];
}

/**
 * ValidateNameFunc: `prefix` is true when validating a generateName, which may end in '-'
 * because random characters are appended.
 */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

// Upstream drops two characters, not one, before appending "a"; copied as is.
function maskTrailingDash(name: string): string {
  return name.endsWith('-') ? `${name.slice(0, Math.max(0, name.length - 2))}a` : name;
}

export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: ValidateNameFunc = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);
export const validateNamespaceName: ValidateNameFunc = nameIsDNSLabel;

/** IsValidPathSegmentName (apimachinery/pkg/api/validation/path): a name that is safe in a URL path. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const illegal of ['/', '%']) if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  return errs;
}
export const validateServiceAccountName: ValidateNameFunc = nameIsDNSSubdomain;

type Path = FieldPath | string;

export function validateLabelName(labelName: string, path: Path): FieldError[] {
  return isQualifiedName(labelName).map((msg) => invalidValue(path, labelName, msg));
}

export function validateLabels(labels: Readonly<Record<string, string>> | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    errs.push(...validateLabelName(k, path));
    for (const msg of isValidLabelValue(v)) errs.push(invalidValue(path, v, msg));
  }
  return errs;
}

export const TotalAnnotationSizeLimitB = 256 * 1024;

/** The bytes annotations count toward their limit: every key and value (ValidateAnnotationsSize). */
export function annotationsSize(annotations: Readonly<Record<string, string>> | undefined): number {
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) total += byteLength(k) + byteLength(v);
  return total;
}

export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  // Annotation keys are qualified names, except that case does not matter.
  for (const k of Object.keys(annotations ?? {})) for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalidValue(path, k, msg));
  if (annotationsSize(annotations) > TotalAnnotationSizeLimitB) errs.push(tooLong(path, TotalAnnotationSizeLimitB));
  return errs;
}

/** IsDomainPrefixedPath. */
export function validateDomainPrefixedPath(value: string, path: FieldPath): FieldError[] {
  const slash = value.indexOf('/');
  if (slash < 0) return [invalidValue(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  const rest = value.slice(slash);
  const errs: FieldError[] = [];
  for (const msg of isDNS1123Subdomain(host)) errs.push(invalidValue(path, host, msg));
  if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(rest)) {
    errs.push(invalidValue(path, rest, "Invalid path: must contain only valid characters: \"A-Za-z0-9/-._~%!$&'()*+,;=:\""));
  }
  return errs;
}
