// What PersistentVolumes and claims share: access modes (their validation and short forms),
// volume modes, the storage-class lookup and quantity cells.
// Upstream: pkg/apis/core/helper/helpers.go (GetAccessModesAsString, GetPersistentVolumeClass),
// pkg/apis/core/validation/validation.go (supportedAccessModes, ValidatePositiveQuantityValue).
import { forbiddenField, invalidValue, notSupported, canonicalizeQuantityText, compareQuantities, parseQuantity, quantityFromValue } from '../../../core/index.ts';
import type { FieldError, FieldPath } from '../../../core/index.ts';

export type PersistentVolumeAccessMode = 'ReadWriteOnce' | 'ReadOnlyMany' | 'ReadWriteMany' | 'ReadWriteOncePod';
export type PersistentVolumeMode = 'Block' | 'Filesystem';

// sets.List order: sorted.
export const supportedAccessModes: readonly PersistentVolumeAccessMode[] = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
export const supportedVolumeModes: readonly PersistentVolumeMode[] = ['Block', 'Filesystem'];

/** The annotation that predates spec.storageClassName and still wins over it. */
export const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

const shortForms: readonly [PersistentVolumeAccessMode, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** GetAccessModesAsString: `RWO,ROX,RWX,RWOP` in that fixed order, duplicates dropped. */
export function accessModesText(modes: readonly string[] | undefined): string {
  const set = new Set(modes ?? []);
  return shortForms.filter(([mode]) => set.has(mode)).map(([, short]) => short).join(',');
}

export function validateAccessModes(modes: readonly string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let rwop = false;
  let other = false;
  for (const mode of modes ?? []) {
    if (!(supportedAccessModes as readonly string[]).includes(mode)) errs.push(notSupported(path, mode, supportedAccessModes));
    else if (mode === 'ReadWriteOncePod') rwop = true;
    else other = true;
  }
  if (rwop && other) errs.push(forbiddenField(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

export function validateVolumeMode(mode: string | undefined, path: FieldPath): FieldError[] {
  if (mode === undefined || (supportedVolumeModes as readonly string[]).includes(mode)) return [];
  return [notSupported(path, mode, supportedVolumeModes)];
}

export const isNotPositiveErrorMsg = 'must be greater than zero';

/** ValidatePositiveQuantityValue; the bad value is the canonical quantity string. */
export function validatePositiveQuantity(text: string, path: FieldPath): FieldError[] {
  const q = parseQuantity(text);
  if (q && compareQuantities(q, quantityFromValue(0)) > 0) return [];
  return [invalidValue(path, canonicalizeQuantityText(text) ?? text, isNotPositiveErrorMsg)];
}

/** Quantity.String() for a table cell; unparsable text is shown as stored. */
export function quantityCell(text: string | undefined): string {
  if (text === undefined) return '0';
  return canonicalizeQuantityText(text) ?? text;
}

/** GetPersistentVolumeClass / GetPersistentVolumeClaimClass. */
export function storageClassOf(obj: { metadata: { annotations?: Record<string, string> }; spec?: { storageClassName?: string | undefined } }): string {
  const beta = obj.metadata.annotations?.[betaStorageClassAnnotation];
  if (beta !== undefined) return beta;
  return obj.spec?.storageClassName ?? '';
}
