// The shape of a Pod Security check and the helpers the checks share to word their findings.
// Upstream: staging/src/k8s.io/pod-security-admission/policy/{checks,helpers,visitor}.go.
import type { Container, PodSpec } from '../../api/index.ts';
import type { ObjectMeta } from '../../core/index.ts';

/** What a check forbids: a short reason, always shown, and the detail a single pod's message adds. */
export interface Violation {
  reason: string;
  detail: string;
}

export type CheckPod = (meta: Readonly<ObjectMeta>, spec: Readonly<PodSpec>) => Violation | undefined;

export interface Check {
  /** Upstream's check ID: the evaluation order sorts by it, so messages list reasons as upstream does. */
  id: string;
  level: 'baseline' | 'restricted';
  /** The check's revisions, oldest first: each applies from its minimum policy minor version (1.x). */
  versions: readonly { min: number; check: CheckPod }[];
  /** The baseline checks a restricted check replaces, at the versions where it applies. */
  overrides?: readonly string[];
}

/** `"a", "b"`: Go's joinQuote, no escaping. */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `container "a"` or `containers "a", "b"`. */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** The distinct values in byte order, as Go's sets.List gives them. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

/** Init containers, then containers, then ephemeral containers. */
export function* allContainers(spec: Readonly<PodSpec>): Generator<Readonly<Container>> {
  yield* spec.initContainers ?? [];
  yield* spec.containers ?? [];
  yield* spec.ephemeralContainers ?? [];
}

/** The names of the containers `bad` picks, in visiting order. */
export function containersWhere(spec: Readonly<PodSpec>, bad: (c: Readonly<Container>) => boolean): string[] {
  const names: string[] = [];
  for (const c of allContainers(spec)) if (bad(c)) names.push(c.name);
  return names;
}

/** Pods in a user namespace (hostUsers: false) are spared some restrictions (KEP-127, policy 1.35). */
export function inUserNamespace(spec: Readonly<PodSpec>): boolean {
  return spec.hostUsers === false;
}

/** Windows pods skip the Linux-only restricted checks from policy 1.25. */
export function isWindowsPod(spec: Readonly<PodSpec>): boolean {
  return spec.os?.name === 'windows';
}
