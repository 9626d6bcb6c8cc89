// Label and field selection of stored objects for list and watch.
// Upstream: apiserver/pkg/storage/selection_predicate.go; field labels per kind come from
// the ResourceDefinition (pkg/apis/*/v1/conversion.go AddFieldLabelConversionFunc).
import type { ResourceDefinition } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { badRequest, parseFieldSelector, parseLabelSelector, unsupportedFieldLabels } from '../core/index.ts';

export interface Selection {
  readonly everything: boolean;
  matches(obj: KubeObject): boolean;
}

const everything: Selection = { everything: true, matches: () => true };

export function buildSelection(def: ResourceDefinition, labelText: string, fieldText: string): Selection {
  if (!labelText && !fieldText) return everything;
  const labels = parseLabelSelector(labelText);
  if (!labels.ok) throw badRequest(`unable to parse requirement: ${labels.message}`);
  const fields = parseFieldSelector(fieldText);
  if (!fields.ok) throw badRequest(fields.message);
  const getters = fieldGetters(def);
  const unsupported = unsupportedFieldLabels(fields.selector, new Set(getters.keys()));
  if (unsupported.length > 0) throw badRequest(`field label not supported: ${unsupported[0]}`);
  const labelSelector = labels.selector;
  const fieldSelector = fields.selector;
  return {
    everything: labelSelector.empty && fieldSelector.empty,
    matches(obj) {
      if (!labelSelector.empty && !labelSelector.matches(obj.metadata.labels)) return false;
      if (fieldSelector.empty) return true;
      return fieldSelector.matches((field) => getters.get(field)?.(obj) ?? '');
    },
  };
}

type Getter = (obj: KubeObject) => string | undefined;
const getterCache = new WeakMap<ResourceDefinition, Map<string, Getter>>();

function fieldGetters(def: ResourceDefinition): Map<string, Getter> {
  let getters = getterCache.get(def);
  if (!getters) {
    getters = new Map<string, Getter>([['metadata.name', (o) => o.metadata.name]]);
    if (def.namespaced) getters.set('metadata.namespace', (o) => o.metadata.namespace);
    for (const [label, get] of Object.entries(def.fieldLabels ?? {})) getters.set(label, get as Getter);
    getterCache.set(def, getters);
  }
  return getters;
}
