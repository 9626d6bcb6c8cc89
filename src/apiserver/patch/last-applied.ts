// kubectl's move from client-side to server-side apply: a `kubectl apply --server-side` (field manager
// `kubectl`) may take the fields its last-applied annotation still matches from their owners without a
// conflict, and keeps that annotation in step with what it applied.
// Upstream: apimachinery/pkg/util/managedfields/internal (lastappliedmanager.go, lastappliedupdater.go,
// lastapplied.go).
import type { KubeObject } from '../../core/index.ts';
import { goMapJson, jsonTooDeep } from '../../core/index.ts';
import type { PatchMeta } from '../../api/index.ts';
import { TotalAnnotationSizeLimitB, annotationsSize } from '../../api/index.ts';
import { difference, emptySet } from './field-set.ts';
import type { FieldSet } from './field-set.ts';
import { isJsonObject } from './json-value.ts';
import type { JsonObject } from './json-value.ts';
import { compare, toFieldSet } from './typed-value.ts';

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
/** Only kubectl's own server-side apply upgrades; another field manager opts out. */
export const upgradingManager = 'kubectl';

/**
 * The fields a conflict may be overlooked on: those of the last-applied configuration that the live
 * object still has with the same value (none without the annotation, or when it is for another version).
 */
export function allowedFromLastApplied(live: JsonObject, apiVersion: string, meta: PatchMeta | undefined): FieldSet {
  const annotations = isJsonObject(live.metadata) ? live.metadata.annotations : undefined;
  const text = isJsonObject(annotations) ? annotations[lastAppliedAnnotation] : undefined;
  if (typeof text !== 'string' || text === '') return emptySet();
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(text);
  } catch {
    return emptySet();
  }
  // The annotation is any text a writer set; one nested past what a body may be is not walked.
  if (jsonTooDeep(text) !== undefined) return emptySet();
  if (!isJsonObject(lastApplied) || lastApplied.apiVersion !== apiVersion) return emptySet();
  const c = compare(lastApplied, live, meta);
  return difference(difference(toFieldSet(lastApplied, meta), c.changed), c.removed);
}

/**
 * After kubectl's server-side apply, an object that has the annotation gets the configuration just
 * applied in it (without the annotation itself), as Go's JSON encoder writes it; dropped when the
 * annotations would outgrow their limit.
 */
export function syncLastApplied(object: KubeObject, applied: KubeObject): void {
  const current = object.metadata.annotations?.[lastAppliedAnnotation];
  if (current === undefined || current === '') return;
  const config = structuredClone(applied) as KubeObject;
  if (config.metadata.annotations) delete config.metadata.annotations[lastAppliedAnnotation];
  const annotations: Record<string, string> = { ...object.metadata.annotations, [lastAppliedAnnotation]: `${goMapJson(config)}\n` };
  if (annotationsSize(annotations) > TotalAnnotationSizeLimitB) delete annotations[lastAppliedAnnotation];
  object.metadata.annotations = annotations;
}
