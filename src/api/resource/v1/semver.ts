// Semantic versions (semver.org 2.0.0) for version-typed device attributes and the CEL semver
// library. Upstream uses github.com/blang/semver/v4 (k8s.io/apiserver/pkg/cel/library/semverlib.go).

export interface Semver {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  /** Dot-separated pre-release identifiers; numeric ones as bigint. */
  readonly pre: readonly (string | bigint)[];
  readonly build: readonly string[];
}

const numeric = /^(0|[1-9]\d*)$/;
const alnum = /^[0-9A-Za-z-]+$/;

/** blang/semver's Parse: the error text is what the CEL runtime error shows. */
export function parseSemver(text: string): Semver | { error: string } {
  if (text.length === 0) return { error: 'Version string empty' };
  let rest = text;
  let build: string[] = [];
  const plus = rest.indexOf('+');
  if (plus >= 0) {
    build = rest.slice(plus + 1).split('.');
    rest = rest.slice(0, plus);
    for (const b of build) if (!alnum.test(b)) return { error: `Invalid character(s) found in build meta data ${JSON.stringify(b)}` };
  }
  let pre: (string | bigint)[] = [];
  const dash = rest.indexOf('-');
  if (dash >= 0) {
    const parts = rest.slice(dash + 1).split('.');
    rest = rest.slice(0, dash);
    for (const p of parts) {
      if (p === '') return { error: 'Prerelease is empty' };
      if (/^\d+$/.test(p)) {
        if (!numeric.test(p)) return { error: `Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(p)}` };
        pre.push(BigInt(p));
      } else if (alnum.test(p)) pre.push(p);
      else return { error: `Invalid character(s) found in prerelease ${JSON.stringify(p)}` };
    }
  }
  const core = rest.split('.');
  if (core.length !== 3) return { error: 'No Major.Minor.Patch elements found' };
  const names = ['major', 'minor', 'patch'];
  const nums: bigint[] = [];
  for (let i = 0; i < 3; i++) {
    const c = core[i] ?? '';
    if (!/^\d+$/.test(c)) return { error: `Invalid character(s) found in ${names[i]} number ${JSON.stringify(c)}` };
    if (!numeric.test(c)) return { error: `${capitalize(names[i] ?? '')} number must not contain leading zeroes ${JSON.stringify(c)}` };
    nums.push(BigInt(c));
  }
  return { major: nums[0] ?? 0n, minor: nums[1] ?? 0n, patch: nums[2] ?? 0n, pre, build };
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export function isSemverError(v: Semver | { error: string }): v is { error: string } {
  return 'error' in v;
}

/** -1, 0 or 1; build metadata is ignored, pre-releases sort before the release. */
export function compareSemver(a: Semver, b: Semver): -1 | 0 | 1 {
  for (const k of ['major', 'minor', 'patch'] as const) {
    if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  }
  if (a.pre.length === 0 && b.pre.length === 0) return 0;
  if (a.pre.length === 0) return 1;
  if (b.pre.length === 0) return -1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i] ?? '';
    const y = b.pre[i] ?? '';
    if (x === y) continue;
    if (typeof x === 'bigint' && typeof y === 'bigint') return x < y ? -1 : 1;
    if (typeof x === 'bigint') return -1;
    if (typeof y === 'bigint') return 1;
    return x < y ? -1 : 1;
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1;
}

/** semver(s, true): drop a leading "v", fill missing minor/patch, strip leading zeros. */
export function normalizeSemverText(text: string): string | { error: string } {
  const parts = (text.startsWith('v') ? text.slice(1) : text).split('.');
  const head = parts.slice(0, 2);
  const tail = parts.slice(2).join('.');
  const all = tail === '' && parts.length < 3 ? head : [...head, tail];
  const fixed = all.map((p) => {
    if (p.length <= 1) return p;
    const t = p.replace(/^0+/, '');
    return t === '' || !/^\d/.test(t) ? `0${t}` : t;
  });
  if (fixed.length < 3) {
    if (/[+-]/.test(fixed[fixed.length - 1] ?? '')) return { error: 'short version cannot contain PreRelease/Build meta data' };
    while (fixed.length < 3) fixed.push('0');
  }
  return fixed.join('.');
}
