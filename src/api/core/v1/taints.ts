// Node taint validation: key/value formats, supported effects and uniqueness by key and effect.
// Upstream: pkg/apis/core/validation/validation.go (validateNodeTaints, validateTaintEffect).
import { duplicate, notSupported, required, invalidValue } from '../../../core/index.ts';
import type { DeepReadonly, FieldError, FieldPath } from '../../../core/index.ts';
import type { Toleration } from './pod/types.ts';
import { isValidLabelValue, validateLabelName } from '../../validation/names.ts';
import type { Taint } from './node.ts';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

export function validateTaintEffect(effect: string | undefined, allowEmpty: boolean, path: FieldPath): FieldError[] {
  if (!allowEmpty && !effect) return [required(path)];
  if (effect && !(taintEffects as readonly string[]).includes(effect)) return [notSupported(path, effect, taintEffects)];
  return [];
}

export function validateTaints(taints: readonly Taint[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (taints ?? []).forEach((t, i) => {
    const p = path.index(i);
    errs.push(...validateLabelName(t.key ?? '', p.child('key')));
    for (const msg of isValidLabelValue(t.value ?? '')) errs.push(invalidValue(p.child('value'), t.value ?? '', msg));
    errs.push(...validateTaintEffect(t.effect, false, p.child('effect')));
    const id = `${t.effect}\u0000${t.key}`;
    if (seen.has(id)) {
      errs.push({ ...duplicate(p, t), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(id);
  });
  return errs;
}

type TaintLike = { readonly key: string; readonly effect: string; readonly value?: string | undefined };
type TolerationLike = { readonly key?: string | undefined; readonly operator?: string | undefined; readonly value?: string | undefined; readonly effect?: string | undefined };

/**
 * Toleration.ToleratesTaint (an empty operator means Equal; an empty key with Exists matches
 * every taint). Upstream: staging/src/k8s.io/api/core/v1/toleration.go.
 */
export function toleratesTaint(t: DeepReadonly<Toleration> | TolerationLike, taint: TaintLike): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}
