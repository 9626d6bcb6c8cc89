// controller.kubernetes.io/pod-deletion-cost (PodDeletionCost, beta and on in 1.35): a ReplicaSet
// scaling down deletes lower-cost pods first. The API server refuses a value that is not a plain
// int32, on pods and on pod templates alike.
// Upstream: pkg/apis/core/helper/helpers.go (GetDeletionCostFromPodAnnotations, validFirstDigit),
// pkg/apis/core/validation/validation.go (ValidatePodSpecificAnnotations).
import { invalidValue } from '../../../../core/index.ts';
import type { FieldError, FieldPath } from '../../../../core/index.ts';

export const podDeletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

// strconv.ParseInt(value, 10, 32) after validFirstDigit: no '+', no leading zeros ("0" itself aside).
const int32Text = /^(?:-\d+|0|[1-9]\d*)$/;

/** The annotation's cost: 0 when absent, undefined when present but not an int32. */
export function parsePodDeletionCost(annotations: Readonly<Record<string, string>> | undefined): number | undefined {
  const value = annotations?.[podDeletionCostAnnotation];
  if (value === undefined) return 0;
  if (!int32Text.test(value)) return undefined;
  const n = Number(value);
  return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

/** ValidatePodSpecificAnnotations' pod-deletion-cost check, at `<path>[controller.kubernetes.io/pod-deletion-cost]`. */
export function validatePodDeletionCost(annotations: Readonly<Record<string, string>> | undefined, path: FieldPath): FieldError[] {
  if (parsePodDeletionCost(annotations) !== undefined) return [];
  return [invalidValue(path.key(podDeletionCostAnnotation), annotations?.[podDeletionCostAnnotation], 'must be a 32bit integer')];
}
