// Node taint validation: key/value formats, supported effects and uniqueness by key and effect.
// Upstream: pkg/apis/core/validation/validation.go (validateNodeTaints, validateTaintEffect).
import { duplicate, notSupported, required, invalidValue } from '../../../core/index.ts';
import type { FieldError, FieldPath } from '../../../core/index.ts';
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
