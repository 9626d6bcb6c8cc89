// The kubelet side of the version skew policy: a kubelet is never newer than the API server and at
// most three minor versions older (kubernetes.io/releases/version-skew-policy).

/** Thrown by a kubelet that refuses to start; `drydock up` prints its message and exits 2. */
export class KubeletVersionSkewError extends Error {
  override readonly name = 'KubeletVersionSkewError';
}

export const maxKubeletMinorSkew = 3;

/** A version's major and minor numbers (`v1.35.2` -> 1, 35), or undefined when it is not one. */
export function minorOf(version: string): { major: number; minor: number } | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?/.exec(version);
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
}

/**
 * Whether a kubelet at `kubeletVersion` resizes pods in place: InPlacePodVerticalScaling is alpha (off) up to
 * 1.32 and beta (on) from 1.33. Without it the kubelet reports no container `resources`, and the API
 * server refuses a running pod's resize (`Pod running on node without support for resize`). A version that
 * does not parse is taken as the newest.
 */
export function hasInPlaceResize(kubeletVersion: string): boolean {
  return isAtLeast133(kubeletVersion);
}

/**
 * Whether a kubelet at `kubeletVersion` runs with SupplementalGroupsPolicy: alpha (off) in 1.31 and 1.32,
 * beta (on) from 1.33. With it each created container reports its user, and a Strict pod is refused on a
 * node whose runtime cannot honour it (before 1.33 it fell back to Merge silently).
 */
export function hasSupplementalGroupsPolicy(kubeletVersion: string): boolean {
  return isAtLeast133(kubeletVersion);
}

function isAtLeast133(kubeletVersion: string): boolean {
  const v = minorOf(kubeletVersion);
  return !v || v.major > 1 || v.minor >= 33;
}

/** Why a kubelet at `kubeletVersion` may not join an API server at `serverVersion`, or undefined if it may. */
export function kubeletVersionSkewProblem(node: string, kubeletVersion: string, serverVersion: string): string | undefined {
  const k = minorOf(kubeletVersion);
  const s = minorOf(serverVersion);
  if (!k || !s) return undefined;
  const rule = `a kubelet must not be newer than kube-apiserver and may be up to ${maxKubeletMinorSkew} minor versions older`;
  if (k.major > s.major || (k.major === s.major && k.minor > s.minor)) {
    return `kubelet ${kubeletVersion} on node "${node}" is newer than the API server ${serverVersion}: ${rule}`;
  }
  if (k.major < s.major || s.minor - k.minor > maxKubeletMinorSkew) {
    return `kubelet ${kubeletVersion} on node "${node}" is more than ${maxKubeletMinorSkew} minor versions older than the API server ${serverVersion}: ${rule}`;
  }
  return undefined;
}
