// What a pod's containers see: the environment a container starts with (GenerateRunContainerOptions),
// its GPUs, its pod's files, and the targets exec, attach, hooks, probes and scripts run against.
// Upstream: pkg/kubelet/kubelet_pods.go (GenerateRunContainerOptions, makeEnvironmentVariables),
// kuberuntime_container.go (runner for hooks), cri streaming (findContainer).
import { readsShellInput } from '../api/index.ts';
import type { CommandHook, Container, ShellFiles } from '../api/index.ts';
import type { DeepReadonly, Timer } from '../core/index.ts';
import { setOwn } from '../core/index.ts';
import { isRunning } from './container-record.ts';
import { containerEnvironment } from './container-env.ts';
import type { EnvResult, EnvSources } from './container-env.ts';
import { podKernelHostname } from './container-files.ts';
import { containerUser } from './container-user.ts';
import { nvidiaGpuResource } from './device-manager.ts';
import { nvidiaSmiList, nvidiaVisibleDevices } from './dynamic-resources.ts';
import type { ContainerDevices } from './dynamic-resources.ts';
import { containerCommandHook } from './exec-shell.ts';
import type { ExecContext } from './exec-shell.ts';
import type { AttachTarget, ExecTarget } from './exec-stream.ts';
import type { HandlerTarget } from './handlers.ts';
import type { LogBuffer } from './logs.ts';
import { PodFiles } from './pod-files.ts';
import type { PodWorkerDeps, PodWorkerView } from './pod-worker-deps.ts';
import type { PodSandbox } from './pod-sandbox.ts';
import type { PodVolumes } from './pod-volumes.ts';
import type { ProbeKind, ProbeWorker } from './prober.ts';
import { ProcessContainer } from './process-container.ts';
import { shellFiles } from './shell-files.ts';
import { SimContainer } from './sim-container.ts';
import type { ContainerProcess } from './sim-container.ts';
import type { DeepReadonlyPod } from './types.ts';

/** The runtime's side of a container: its process, logs and probe workers. */
export interface LiveContainer {
  sim?: ContainerProcess;
  /** The environment the process started with (what exec sees too). */
  env?: Readonly<Record<string, string>>;
  logs: LogBuffer;
  previousLogs?: LogBuffer;
  probes: Partial<Record<ProbeKind, ProbeWorker>>;
  creating?: Timer;
}

export interface ContainerContextOptions {
  deps: Pick<PodWorkerDeps, 'client' | 'clock' | 'random' | 'hostIP' | 'envSources' | 'devices' | 'nodeAllocatable' | 'dns'>;
  /** When the pod started: its projected files were written then. */
  startTime: number;
  live: ReadonlyMap<string, LiveContainer>;
  /** The pod's IP, and what the DRA drivers prepared for a container (absent until its claims are prepared). */
  sandbox: Pick<PodSandbox, 'podIP' | 'prepared'>;
  /** The config maps and secrets as the pod's volumes were last written. */
  volumes: Pick<PodVolumes, 'contentSources'>;
}

/** The PATH of a simulated container's processes: a Debian-based image's. */
const simulatedPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The spec of container `name` (init, regular or ephemeral) and its field path for events. */
export function containerSpec(pod: DeepReadonlyPod, name: string): { c: Readonly<Container>; path: string } | undefined {
  const init = pod.spec.initContainers?.find((c) => c.name === name);
  if (init) return { c: init as Container, path: `spec.initContainers{${name}}` };
  const c = pod.spec.containers.find((x) => x.name === name);
  if (c) return { c: c as Container, path: `spec.containers{${name}}` };
  const debug = pod.spec.ephemeralContainers?.find((x) => x.name === name);
  return debug ? { c: debug as Container, path: `spec.ephemeralContainers{${name}}` } : undefined;
}

export class ContainerContext {
  readonly #v: PodWorkerView;
  readonly #o: ContainerContextOptions;
  #files: PodFiles | undefined;

  constructor(view: PodWorkerView, options: ContainerContextOptions) {
    this.#v = view;
    this.#o = options;
  }

  /**
   * A simulated process's environment, as an image's: PATH and HOSTNAME first, then what the container
   * started with (its own, the Services', what the drivers injected), HOME last unless set.
   */
  imageEnv(own: Readonly<Record<string, string>>): Record<string, string> {
    const env: Record<string, string> = { PATH: simulatedPath, HOSTNAME: podKernelHostname(this.#v.pod) };
    for (const [k, v] of Object.entries(own)) setOwn(env, k, v);
    if (env.HOME === undefined) env.HOME = '/root';
    return env;
  }

  /**
   * What `kubectl exec` into container `name` runs against, or the kubelet's refusal when it is not
   * running (findContainer's words). A host process's exec runs on the host.
   */
  execTarget(name: string): ExecTarget | { error: string } {
    const pod = this.#v.pod;
    const rec = this.#v.records.get(name);
    const c = containerSpec(pod, name)?.c;
    const live = this.#o.live.get(name);
    if (!c || !live?.sim || !isRunning(rec?.current)) return { error: `container not found (${JSON.stringify(name)})` };
    const { clock, dns } = this.#o.deps;
    const env = this.imageEnv(live.env ?? {});
    const workingDir = c.workingDir || '/';
    const context: ExecContext = { env, gpuList: this.gpuList(c), workingDir, files: this.podFiles().files(pod, name, this.#o.sandbox.podIP, rec.current.id), now: () => clock.now(), dns, image: c.image, user: containerUser(pod.spec.securityContext, c.securityContext) };
    // A host process (runtime: process) execs for real, with the environment it was started with.
    const sim = live.sim;
    return sim instanceof ProcessContainer ? { context, logs: live.logs, host: { env: sim.env, workingDir } } : { context, logs: live.logs };
  }

  /**
   * What `kubectl attach` to container `name` joins: its output from now on and, when its process is a
   * shell reading the standard input the spec gives it (`stdin: true`, as `kubectl run -it` makes),
   * that shell, whose `exit` ends the container.
   */
  attachTarget(name: string): AttachTarget | { error: string } {
    const exec = this.execTarget(name);
    const live = this.#o.live.get(name);
    const c = containerSpec(this.#v.pod, name)?.c;
    if ('error' in exec || !live || !c) return 'error' in exec ? exec : { error: `container not found (${JSON.stringify(name)})` };
    const sim = live.sim;
    const shell = sim instanceof SimContainer && readsShellInput(c);
    return { logs: live.logs, context: exec.context, ...(shell ? { shell: { exit: (code: number) => sim.exitWith(code), stdinOnce: c.stdinOnce === true } } : {}) };
  }

  /**
   * What a container's script asks the kubelet (cat, nslookup), as exec would answer it: the files of
   * instance `id` and the cluster DNS as they are when the command runs.
   */
  scriptCommands(c: DeepReadonly<Container>, id: string, env: Readonly<Record<string, string>>): (argv: readonly string[]) => CommandHook | undefined {
    const context = this;
    const { clock, dns } = this.#o.deps;
    const view = this.#v;
    const sandbox = this.#o.sandbox;
    return containerCommandHook({
      env,
      gpuList: undefined,
      workingDir: c.workingDir || '/',
      get files() {
        return context.podFiles().files(view.pod, c.name, sandbox.podIP, id);
      },
      now: () => clock.now(),
      dns,
      image: c.image,
      user: containerUser(view.pod.spec.securityContext, c.securityContext),
    });
  }

  /** The files of instance `id` as its script's redirections and tail open them, live. */
  scriptFiles(c: DeepReadonly<Container>, id: string): ShellFiles {
    return shellFiles(() => this.podFiles().files(this.#v.pod, c.name, this.#o.sandbox.podIP, id), c.workingDir || '/', true);
  }

  /**
   * What an exec probe or hook asks the kubelet, as the container's script would; a file outside what
   * the kubelet knows (the image's) leaves the answer to the behaviour model, as before files were read.
   */
  #handlerCommands(c: DeepReadonly<Container>, id: string, live: LiveContainer): (argv: readonly string[]) => CommandHook | undefined {
    const hook = this.scriptCommands(c, id, this.imageEnv(live.env ?? {}));
    return (argv) => {
      const answer = hook(argv);
      return answer && 'unknown' in answer ? undefined : answer;
    };
  }

  handlerTarget(live: LiveContainer, c: Readonly<Container>): HandlerTarget {
    const now = this.#o.deps.clock.now();
    const target: HandlerTarget = { healthy: live.sim?.isHealthy(now) ?? false, podIP: this.#o.sandbox.podIP ?? '', responseTimeMs: live.sim?.responseTimeMs ?? 0, env: () => this.imageEnv(live.env ?? {}), now };
    const id = this.#v.records.get(c.name)?.current?.id;
    if (id !== undefined && live.sim instanceof SimContainer) {
      target.command = this.#handlerCommands(c, id, live);
      target.files = this.scriptFiles(c, id);
    }
    if (c.ports) target.ports = c.ports;
    if (live.sim?.readyDecidesProbes) target.readyDecidesProbes = true;
    return target;
  }

  /** Made at the first exec: most pods are never exec'd into. */
  podFiles(): PodFiles {
    const { client, clock, random, nodeAllocatable } = this.#o.deps;
    return (this.#files ??= new PodFiles({ client, clock, random, sources: this.#o.volumes.contentSources(), allocatable: nodeAllocatable ?? (() => undefined), writtenAt: this.#o.startTime }));
  }

  /** The files exec wrote, if any exec made them: none is made to answer. */
  get madeFiles(): PodFiles | undefined {
    return this.#files;
  }

  /**
   * The container's env and envFrom (config maps and secrets from the kubelet's caches), then what the
   * drivers inject (CDI edits win over the pod spec); an error when a reference is missing.
   */
  environment(c: Readonly<Container>): EnvResult {
    const { envSources, hostIP, nodeAllocatable, devices } = this.#o.deps;
    const pod = this.#v.pod;
    let env: Record<string, string> = {};
    if (envSources) {
      const made = containerEnvironment(pod, c, envSources, { podIP: this.#o.sandbox.podIP ?? '', hostIP }, nodeAllocatable?.());
      if (!made.ok) return made;
      env = made.env;
    } else {
      for (const e of c.env ?? []) if (e.value !== undefined) setOwn(env, e.name, e.value);
    }
    const plugin = devices?.gpusOf(pod.metadata.uid ?? '', c.name);
    const pluginEnv = plugin ? { [nvidiaVisibleDevices]: plugin.map((g) => g.uuid).join(',') } : undefined;
    const injected = this.#o.sandbox.prepared(c)?.env;
    // Unchanged, it stays the (possibly shared) object containerEnvironment made.
    return { ok: true, env: pluginEnv || injected ? { ...env, ...pluginEnv, ...injected } : env };
  }

  /**
   * What `nvidia-smi -L` lists in the container: its DRA devices, else its device plugin's GPUs;
   * undefined for MIG resources a device plugin counts but this kubelet does not assign.
   */
  gpuList(c: Readonly<Container>): readonly string[] | undefined {
    const prepared = this.#o.sandbox.prepared(c);
    if (prepared) return prepared.gpuList;
    const plugin = this.#o.deps.devices?.gpusOf(this.#v.pod.metadata.uid ?? '', c.name);
    if (plugin) return nvidiaSmiList(plugin.map((g) => ({ gpuUuid: g.uuid, productName: g.productName })));
    const limits = Object.keys(c.resources?.limits ?? {});
    return limits.some((r) => r === nvidiaGpuResource || r.startsWith('nvidia.com/mig-')) ? undefined : [];
  }
}
