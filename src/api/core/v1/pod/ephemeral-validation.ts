// Updates through pods/<name>/ephemeralcontainers (kubectl debug): only new ephemeral containers may appear;
// existing ones may be neither removed nor changed.
// Upstream: pkg/apis/core/validation/validation.go (ValidatePodEphemeralContainersUpdate).
import { FieldPath, forbiddenField } from '../../../../core/index.ts';
import type { FieldError } from '../../../../core/index.ts';
import { validateObjectMetaUpdate } from '../../../validation/index.ts';
import type { Pod } from './types.ts';
import { validatePodMetadataAndSpec } from './validation.ts';
import { describeSpecDiff, isSemanticEqual } from './update-validation.ts';

export function validateEphemeralContainersUpdate(pod: Pod, old: Pod): FieldError[] {
  const errs = [...validateObjectMetaUpdate(pod.metadata, old.metadata), ...validatePodMetadataAndSpec(pod, old)];
  if (old.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) {
    return [forbiddenField(new FieldPath(''), 'static pods do not support ephemeral containers')];
  }
  const path = new FieldPath('spec').child('ephemeralContainers');
  const next = new Map((pod.spec?.ephemeralContainers ?? []).map((c) => [c.name, c]));
  for (const o of old.spec?.ephemeralContainers ?? []) {
    const n = next.get(o.name);
    if (!n) errs.push(forbiddenField(path, `existing ephemeral containers "${o.name}" may not be removed\n`));
    else if (!isSemanticEqual(o, n)) {
      errs.push(forbiddenField(path, `existing ephemeral containers "${o.name}" may not be changed\n${describeSpecDiff(o, n).join('\n')}`));
    }
  }
  return errs;
}
