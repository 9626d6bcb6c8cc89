// The control plane's ComponentStatuses (`kubectl get cs`): the scheduler and the controller manager
// are healthy while their components run in this process, etcd-0 (the store) always. A component that
// is not running fails its health check as an unreachable one does upstream (Unhealthy, the GET's error as message).
// Upstream: pkg/registry/core/componentstatus/{rest.go,validator.go}, pkg/controlplane/instance.go (the servers).
import { componentStatus, componentStatusDefinition } from '../api/index.ts';
import type { ComponentStatus } from '../api/index.ts';
import type { DelegatedResource } from '../apiserver/index.ts';
import { ApiError } from '../core/index.ts';

/** A component's health check: its name as listed, the component that answers it, and the endpoint probed. */
interface CheckedComponent {
  name: string;
  /** The running component (cluster/components.ts) whose presence means healthy; undefined for the store. */
  component?: string;
  healthz?: string;
}

const checked: readonly CheckedComponent[] = [
  { name: 'scheduler', component: 'scheduler', healthz: 'https://127.0.0.1:10259/healthz' },
  { name: 'controller-manager', component: 'replicaset-controller', healthz: 'https://127.0.0.1:10257/healthz' },
  { name: 'etcd-0' },
];

function statusOf(c: CheckedComponent, running: ReadonlySet<string>): ComponentStatus {
  if (!c.component || running.has(c.component)) return componentStatus(c.name, { status: 'True', message: 'ok' });
  // DoHTTPProbe turns a failed GET into a Failure whose data is the error's text, and no error.
  const address = new URL(c.healthz ?? '').host;
  return componentStatus(c.name, { status: 'False', message: `Get "${c.healthz ?? ''}": dial tcp ${address}: connect: connection refused` });
}

/** ComponentStatus served from the running components; `running` names them at the time of the read. */
export function componentStatuses(running: () => ReadonlySet<string>): DelegatedResource {
  return {
    def: componentStatusDefinition,
    get: (_namespace, name) => {
      const c = checked.find((x) => x.name === name);
      // Upstream answers with a plain error, which the API server reports as a 500 without a reason.
      if (!c) throw new ApiError('', `Component not found: ${name}`);
      return statusOf(c, running());
    },
    list: () => {
      const now = running();
      return checked.map((c) => statusOf(c, now));
    },
  };
}
