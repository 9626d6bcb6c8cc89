// A CustomResourceDefinition for the cluster's tests: widgets.example.com, namespaced, any fields kept.
// (No tests here; imported by others.)
import type { KubeObject } from '../core/index.ts';

const anything = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };

/** widgets.example.com serving and storing v1, plus `unserved` versions listed but not served. */
export function widgetCrd(unserved: readonly string[] = []): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: anything }, ...unserved.map((name) => ({ name, served: false, storage: false, schema: anything }))],
    },
  };
}
