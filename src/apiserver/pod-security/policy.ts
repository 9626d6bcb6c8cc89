// A namespace's Pod Security policy: the level and version each mode (enforce, audit, warn) applies,
// read from its pod-security.kubernetes.io labels, with the cluster default for any label it lacks.
// Upstream: staging/src/k8s.io/pod-security-admission/api/{constants,helpers}.go.
import { FieldPath, invalidValue } from '../../core/index.ts';
import type { FieldError } from '../../core/index.ts';

export type Level = 'privileged' | 'baseline' | 'restricted';
/** A policy version: `latest`, or the minor of `v1.<minor>`. */
export type Version = 'latest' | number;

export interface LevelVersion {
  level: Level;
  version: Version;
}

export interface Policy {
  enforce: LevelVersion;
  audit: LevelVersion;
  warn: LevelVersion;
}

export const labelPrefix = 'pod-security.kubernetes.io/';
const enforceLevelLabel = `${labelPrefix}enforce`;
const enforceVersionLabel = `${labelPrefix}enforce-version`;
const auditLevelLabel = `${labelPrefix}audit`;
const auditVersionLabel = `${labelPrefix}audit-version`;
const warnLevelLabel = `${labelPrefix}warn`;
const warnVersionLabel = `${labelPrefix}warn-version`;

const privilegedLatest: LevelVersion = { level: 'privileged', version: 'latest' };
/** The defaults with no AdmissionConfiguration: privileged:latest in every mode. */
export const defaultPolicy: Policy = { enforce: privilegedLatest, audit: privilegedLatest, warn: privilegedLatest };

const levels: readonly Level[] = ['privileged', 'baseline', 'restricted'];
const versionPattern = /^v1\.([0-9]|[1-9][0-9]*)$/;
const labelsPath = FieldPath.root('metadata').child('labels');

/** `restricted:latest`, as the messages name a policy. */
export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${lv.version === 'latest' ? 'latest' : `v1.${lv.version}`}`;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && a.version === b.version;
}

/** -1, 0 or 1 as `a` is less strict than, as strict as, or stricter than `b`. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(levels.indexOf(a) - levels.indexOf(b));
}

export function isFullyPrivileged(p: Policy): boolean {
  return p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';
}

export function hasPodSecurityLabels(labels: Readonly<Record<string, string>> | undefined): boolean {
  for (const key in labels) if (key.startsWith(labelPrefix)) return true;
  return false;
}

interface Parsed<T> {
  value: T;
  error?: string;
}

// An unparsable level is evaluated as restricted (callers may fail open instead), a version as latest.
function parseLevel(text: string): Parsed<Level> {
  return (levels as readonly string[]).includes(text) ? { value: text as Level } : { value: 'restricted', error: `must be one of ${levels.join(', ')}` };
}

function parseVersion(text: string): Parsed<Version> {
  if (text === 'latest') return { value: 'latest' };
  const match = versionPattern.exec(text);
  return match ? { value: Number(match[1]) } : { value: 'latest', error: 'must be "latest" or "v1.x"' };
}

export interface NamespacePolicy {
  policy: Policy;
  /** The labels that did not parse, as field errors (a namespace write with new ones is refused). */
  errors: FieldError[];
}

/**
 * The policy to evaluate for a namespace's labels. Bad values still give a policy: an enforce level
 * that does not parse enforces restricted, while audit and warn fail open to privileged. A stricter
 * enforce level set without a warn level warns at it too (PR #113491, 1.26).
 */
export function policyToEvaluate(labels: Readonly<Record<string, string>> | undefined, defaults: Policy = defaultPolicy): NamespacePolicy {
  const errors: FieldError[] = [];
  const enforce = { ...defaults.enforce };
  const audit = { ...defaults.audit };
  const warn = { ...defaults.warn };
  if (!labels) return { policy: { enforce, audit, warn }, errors };
  const read = <T>(label: string, parse: (text: string) => Parsed<T>): Parsed<T> | undefined => {
    const text = labels[label];
    if (text === undefined) return undefined;
    const parsed = parse(text);
    if (parsed.error) errors.push(invalidValue(labelsPath.key(label), text, parsed.error));
    return parsed;
  };
  const enforceLevel = read(enforceLevelLabel, parseLevel);
  if (enforceLevel) enforce.level = enforceLevel.value;
  const enforceVersion = read(enforceVersionLabel, parseVersion);
  if (enforceVersion) enforce.version = enforceVersion.value;
  const auditLevel = read(auditLevelLabel, parseLevel);
  if (auditLevel) audit.level = auditLevel.error ? 'privileged' : auditLevel.value;
  const auditVersion = read(auditVersionLabel, parseVersion);
  if (auditVersion) audit.version = auditVersion.value;
  const warnLevel = read(warnLevelLabel, parseLevel);
  if (warnLevel) warn.level = warnLevel.error ? 'privileged' : warnLevel.value;
  const warnVersion = read(warnVersionLabel, parseVersion);
  if (warnVersion) warn.version = warnVersion.value;
  if (!warnLevel && enforceLevel && !enforceLevel.error && compareLevels(enforce.level, warn.level) > 0) {
    warn.level = enforce.level;
    if (!warnVersion) warn.version = enforce.version;
  }
  return { policy: { enforce, audit, warn }, errors };
}
