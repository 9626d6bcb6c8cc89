// RuntimeClass (node.k8s.io/v1): a container runtime configuration pods select by
// `spec.runtimeClassName` (the GPU operator's `nvidia`), with the overhead and scheduling
// constraints the RuntimeClass admission plugin copies into the pods that name it.
// Upstream: staging/src/k8s.io/api/node/v1/types.go, pkg/apis/node/validation/validation.go,
// pkg/printers/internalversion/printers.go (printRuntimeClass), plugin/pkg/admission/runtimeclass/admission.go,
// pkg/util/tolerations/tolerations.go (MergeTolerations).
import { FieldPath, GoSyntax, duplicate, invalidValue, jsonEqual } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { Toleration } from '../../core/v1/pod/types.ts';
import { validateTolerations } from '../../core/v1/pod/validation.ts';
import { validateResourceRequirements } from '../../core/v1/pod/container-validation.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isDNS1123Label, nameIsDNSSubdomain, validateLabels } from '../../validation/names.ts';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';

export interface RuntimeClass extends KubeObject {
  metadata: ObjectMeta;
  handler: string;
  overhead?: { podFixed?: Record<string, string> };
  scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Toleration[] };
}

/** The toleration as Go's %#v prints the internal type, for the Duplicate value. */
function goToleration(t: Toleration): string {
  const seconds = t.tolerationSeconds === undefined ? '(*int64)(nil)' : `(*int64)(${t.tolerationSeconds})`;
  return `core.Toleration{Key:${JSON.stringify(t.key ?? '')}, Operator:${JSON.stringify(t.operator ?? '')}, Value:${JSON.stringify(t.value ?? '')}, Effect:${JSON.stringify(t.effect ?? '')}, TolerationSeconds:${seconds}}`;
}

function validateScheduling(scheduling: NonNullable<RuntimeClass['scheduling']>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (scheduling.nodeSelector) errs.push(...validateLabels(scheduling.nodeSelector, path.child('nodeSelector')));
  const tolerations = path.child('tolerations');
  errs.push(...validateTolerations(scheduling.tolerations, tolerations));
  // Unique by the fields that key the list upstream.
  const seen: Record<string, string>[] = [];
  (scheduling.tolerations ?? []).forEach((t, i) => {
    const key = { key: t.key ?? '', operator: t.operator ?? '', value: t.value ?? '', effect: t.effect ?? '' };
    if (seen.some((s) => jsonEqual(s, key))) errs.push(duplicate(tolerations.index(i), new GoSyntax(goToleration(t))));
    else seen.push(key);
  });
  return errs;
}

export function validateRuntimeClass(rc: RuntimeClass): FieldError[] {
  const errs = validateObjectMeta(rc.metadata, { namespaced: false, nameValidator: nameIsDNSSubdomain });
  for (const msg of isDNS1123Label(rc.handler ?? '')) errs.push(invalidValue(FieldPath.root('handler'), rc.handler ?? '', msg));
  if (rc.overhead) errs.push(...validateResourceRequirements({ limits: rc.overhead.podFixed ?? {} }, FieldPath.root('overhead'), new Set(), 'container'));
  if (rc.scheduling) errs.push(...validateScheduling(rc.scheduling, FieldPath.root('scheduling')));
  return errs;
}

const runtimeClassTable: TablePrinter<RuntimeClass> = {
  columns: [nameColumn, column('Handler', 'string', 'handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class.'), ageColumn],
  cells: (rc, now) => [rc.metadata.name ?? '', rc.handler, translateTimestampSince(rc.metadata.creationTimestamp, now)],
};

export const runtimeClassDefinition: ResourceDefinition<RuntimeClass> = {
  group: 'node.k8s.io',
  version: 'v1',
  kind: 'RuntimeClass',
  resource: 'runtimeclasses',
  singular: 'runtimeclass',
  namespaced: false,
  hasStatus: false,
  validateCreate: validateRuntimeClass,
  validateUpdate: (rc, old) => [...validateObjectMetaUpdate(rc.metadata, old.metadata), ...validateImmutableField(rc.handler, old.handler, FieldPath.root('handler'))],
  table: runtimeClassTable,
};

/** isSuperset: whether `ss` tolerates everything `t` does (upstream's operator precedence kept). */
function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (jsonEqual(ss, t)) return true;
  if ((t.key ?? '') !== (ss.key ?? '') && ((ss.key ?? '') !== '' || ss.operator !== 'Exists')) return false;
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator ?? '') {
    case 'Equal':
    case '':
      return t.operator === 'Equal' || ((t.operator ?? '') === '' && (t.value ?? '') === (ss.value ?? ''));
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** MergeTolerations: both lists, without a toleration another one already covers. */
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((later) => !jsonEqual(t, later) && isSuperset(later, t))) return;
    merged.push(t);
  });
  return merged;
}
