// ObjectMeta validation shared by every kind, on create and on update.
// Upstream: apimachinery/pkg/api/validation/objectmeta.go, generic.go.

import {
  FieldPath,
  forbiddenField,
  invalidValue,
  jsonEqual,
  required,
  tooLong,
  type DeepReadonly,
  type FieldError,
  type ObjectMeta,
  type OwnerReference,
} from '../../core/index.ts';
import { byteLength, isQualifiedName, validateAnnotations, validateLabels, validateNamespaceName, type ValidateNameFunc } from './names.ts';

export const FieldImmutableErrorMsg = 'field is immutable';
export const IsNegativeErrorMsg = 'must be greater than or equal to 0';
const FinalizerOrphanDependents = 'orphan';
const FinalizerDeleteDependents = 'foregroundDeletion';

type Meta = DeepReadonly<ObjectMeta>;
type Path = FieldPath | string;
const toPath = (p: Path): FieldPath => (typeof p === 'string' ? FieldPath.root(p) : p);

export interface ObjectMetaOptions {
  readonly namespaced: boolean;
  readonly nameValidator: ValidateNameFunc;
}

/** ValidateObjectMeta: expects name generation to have run already. */
export function validateObjectMeta(meta: Meta, opts: ObjectMetaOptions, path: Path = 'metadata'): FieldError[] {
  const p = toPath(path);
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const msg of opts.nameValidator(meta.generateName, true)) errs.push(invalidValue(p.child('generateName'), meta.generateName, msg));
  }
  if (!meta.name) errs.push(required(p.child('name'), 'name or generateName is required'));
  else for (const msg of opts.nameValidator(meta.name, false)) errs.push(invalidValue(p.child('name'), meta.name, msg));

  if (opts.namespaced) {
    if (!meta.namespace) errs.push(required(p.child('namespace')));
    else for (const msg of validateNamespaceName(meta.namespace, false)) errs.push(invalidValue(p.child('namespace'), meta.namespace, msg));
  } else if (meta.namespace) {
    errs.push(forbiddenField(p.child('namespace'), 'not allowed on this type'));
  }
  if (meta.generation !== undefined && meta.generation < 0) errs.push(invalidValue(p.child('generation'), meta.generation, IsNegativeErrorMsg));
  errs.push(...validateCommon(meta, p));
  return errs;
}

function validateCommon(meta: Meta, p: FieldPath): FieldError[] {
  return [
    ...validateLabels(meta.labels, p.child('labels')),
    ...validateAnnotations(meta.annotations, p.child('annotations')),
    ...validateOwnerReferences(meta.ownerReferences ?? [], p.child('ownerReferences')),
    ...validateFinalizers(meta.finalizers ?? [], p.child('finalizers')),
    ...validateManagedFields(meta.managedFields ?? [], p.child('managedFields')),
  ];
}

/** An apiVersion's group and version; text schema.ParseGroupVersion refuses (two slashes) is neither. */
export function apiVersionParts(apiVersion: string): { group: string; version: string } {
  // schema.ParseGroupVersion's lenient cousin used by FromAPIVersionAndKind: "v1" is the core group.
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  if (apiVersion.indexOf('/', slash + 1) >= 0) return { group: '', version: '' };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function validateOwnerReferences(refs: readonly DeepReadonly<OwnerReference>[], path: Path): FieldError[] {
  const p = toPath(path);
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs) {
    const { group, version } = apiVersionParts(ref.apiVersion ?? '');
    if (!version) errs.push(invalidValue(p.child('apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
    if (!ref.kind) errs.push(invalidValue(p.child('kind'), ref.kind ?? '', 'must not be empty'));
    if (!ref.name) errs.push(invalidValue(p.child('name'), ref.name ?? '', 'must not be empty'));
    if (!ref.uid) errs.push(invalidValue(p.child('uid'), ref.uid ?? '', 'must not be empty'));
    if (group === '' && version === 'v1' && ref.kind === 'Event') {
      errs.push(invalidValue(p, ref, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController) {
        errs.push(
          invalidValue(p, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`),
        );
      } else firstController = current;
    }
  }
  return errs;
}

export function validateFinalizers(finalizers: readonly string[], path: Path): FieldError[] {
  const p = toPath(path);
  const errs: FieldError[] = [];
  for (const f of finalizers) for (const msg of isQualifiedName(f)) errs.push(invalidValue(p, f, msg));
  if (finalizers.includes(FinalizerOrphanDependents) && finalizers.includes(FinalizerDeleteDependents)) {
    errs.push(invalidValue(p, finalizers, `finalizer ${FinalizerOrphanDependents} and ${FinalizerDeleteDependents} cannot be both set`));
  }
  return errs;
}

function validateManagedFields(entries: NonNullable<Meta['managedFields']>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  entries.forEach((e, i) => {
    const ep = p.index(i);
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      errs.push(invalidValue(ep.child('operation'), e.operation ?? '', 'must be `Apply` or `Update`'));
    }
    if (e.fieldsType && e.fieldsType !== 'FieldsV1') errs.push(invalidValue(ep.child('fieldsType'), e.fieldsType, 'must be `FieldsV1`'));
    if (e.manager && byteLength(e.manager) > 128) errs.push(tooLong(ep.child('manager'), 128));
    if (e.subresource && byteLength(e.subresource) > 256) errs.push(tooLong(ep.child('subresource'), 256));
  });
  return errs;
}

/** ValidateImmutableField; Go has no undefined, so a missing string equals "". */
export function validateImmutableField(newVal: unknown, oldVal: unknown, path: Path): FieldError[] {
  return jsonEqual(newVal ?? '', oldVal ?? '') ? [] : [invalidValue(path, newVal ?? '', FieldImmutableErrorMsg)];
}

/**
 * ValidateObjectMetaUpdate. The caller (the update pipeline) has already copied uid,
 * creationTimestamp, generation and, for unconditional updates, resourceVersion from the
 * stored object, as upstream's BeforeUpdate and Store.Update do.
 */
export function validateObjectMetaUpdate(newMeta: Meta, oldMeta: Meta, path: Path = 'metadata'): FieldError[] {
  const p = toPath(path);
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp) {
    const old = new Set(oldMeta.finalizers ?? []);
    const extra = [...new Set(newMeta.finalizers ?? [])].filter((f) => !old.has(f)).sort();
    if (extra.length > 0) {
      const list = `[]string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`;
      errs.push(forbiddenField(p.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers ${list}`));
    }
  }
  if (!newMeta.resourceVersion) errs.push(invalidValue(p.child('resourceVersion'), newMeta.resourceVersion ?? '', 'must be specified for an update'));
  if ((newMeta.generation ?? 0) < (oldMeta.generation ?? 0)) {
    errs.push(invalidValue(p.child('generation'), newMeta.generation ?? 0, 'must not be decremented'));
  }
  errs.push(
    ...validateImmutableField(newMeta.name, oldMeta.name, p.child('name')),
    ...validateImmutableField(newMeta.namespace, oldMeta.namespace, p.child('namespace')),
    ...validateImmutableField(newMeta.uid, oldMeta.uid, p.child('uid')),
    ...validateImmutableField(newMeta.creationTimestamp, oldMeta.creationTimestamp, p.child('creationTimestamp')),
    ...validateImmutableField(newMeta.deletionTimestamp, oldMeta.deletionTimestamp, p.child('deletionTimestamp')),
  );
  if (newMeta.deletionGracePeriodSeconds !== oldMeta.deletionGracePeriodSeconds) {
    errs.push(invalidValue(p.child('deletionGracePeriodSeconds'), newMeta.deletionGracePeriodSeconds ?? null, FieldImmutableErrorMsg));
  }
  errs.push(...validateCommon(newMeta, p));
  return errs;
}
