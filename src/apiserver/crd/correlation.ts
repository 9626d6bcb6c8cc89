// How an update's new values correlate with the old ones, shared by validation ratcheting and transition
// rules: object properties by name, a map list's items by their keys; other lists' items do not correlate.
// Upstream: apiserver/pkg/cel/common/equality.go (CorrelatedObject), apiextensions' cel validation.
import { jsonEqual } from '../../core/index.ts';
import type { JSONSchemaProps } from './types.ts';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The item of `old` (a list under `s`) that `item` correlates with: the same map keys in a map list; else undefined. */
export function correlatedListItem(item: unknown, old: unknown, s: JSONSchemaProps): unknown {
  const keys = s['x-kubernetes-list-map-keys'];
  if (s['x-kubernetes-list-type'] !== 'map' || !keys?.length || !Array.isArray(old) || !isObject(item)) return undefined;
  return old.find((o) => isObject(o) && keys.every((k) => jsonEqual(o[k], item[k])));
}

/** Whether a rule reads oldSelf (a transition rule). */
export const usesOldSelf = (rule: string): boolean => /\boldSelf\b/.test(rule);
