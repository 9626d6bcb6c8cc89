// DefaultBinder: POST pods/<name>/binding with the chosen node.
// Upstream: pkg/scheduler/framework/plugins/defaultbinder/default_binder.go.
import type { Binding } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import type { Plugin, PluginFactory } from '../framework.ts';
import { success } from '../framework.ts';

export const name = 'DefaultBinder';

export const newDefaultBinder: PluginFactory = (_args, handle) =>
  ({
    name,
    async bind(_state, pod, nodeName) {
      const meta = pod.pod.metadata;
      const binding: Binding = {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { namespace: meta.namespace ?? '', name: meta.name ?? '', ...(meta.uid ? { uid: meta.uid } : {}) },
        target: { kind: 'Node', name: nodeName },
      };
      await handle.client.create(refs.pods, binding, { namespace: meta.namespace ?? '', name: meta.name ?? '', subresource: 'binding' });
      return success;
    },
  }) satisfies Plugin;
