// What a ControllerRevision of a DaemonSet or StatefulSet holds: a strategic merge patch that
// replaces spec.template (what `kubectl rollout undo` applies), and the template it restores.
// Upstream: pkg/controller/daemon/update.go and statefulset/stateful_set_utils.go (getPatch, ApplyRevision).
import type { PodTemplateSpec } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';
import { copyJson } from '../core/index.ts';

/** getPatch. */
export const templatePatch = (template: DeepReadonly<PodTemplateSpec>): unknown => ({ spec: { template: { ...copyJson(template), $patch: 'replace' } } });

/** ApplyRevision: the template a revision's data restores. */
export function patchedTemplate(data: unknown): DeepReadonly<PodTemplateSpec> {
  const { $patch: _replace, ...template } = ((data as { spec?: { template?: Record<string, unknown> } } | undefined)?.spec?.template ?? {}) as Record<string, unknown>;
  return template as DeepReadonly<PodTemplateSpec>;
}
