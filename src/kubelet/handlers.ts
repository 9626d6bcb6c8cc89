// Probe and lifecycle-hook handlers evaluated against the behaviour model: exec commands in the simple
// command forms run as such (`exit 1` fails, `sleep 5` takes 5 s; `cat FILE` reads the container's live
// files where the kubelet knows them); other exec, httpGet, tcpSocket and
// grpc actions succeed once the container is healthy (`ready:` after start) and take its
// `responseTime`; probes that outlast timeoutSeconds fail as upstream's probers do. A `ready` the
// behaviour annotation sets outranks an exec probe's command form (DESIGN.md's precedence). Pure.
// Upstream: pkg/kubelet/prober/prober.go, pkg/probe/{http,tcp,grpc,exec}, pkg/kubelet/lifecycle/handlers.go.
import { runCommandForm } from '../api/index.ts';
import type { CommandHook, ShellFiles } from '../api/index.ts';
import type { Probe } from './types.ts';

export interface HandlerResult {
  ok: boolean;
  /** What the probe or hook printed (the Unhealthy event's detail). */
  output: string;
  /** How long the handler ran. */
  durationMs: number;
  /** Why a failed exec or httpGet handler failed, as the Go error the kubelet's hook message quotes. */
  error?: string;
}

type Action = Pick<Probe, 'exec' | 'httpGet' | 'tcpSocket' | 'grpc'> & { sleep?: { seconds: number } };

/** The container a handler runs against: healthy now or not, its IP, how long it takes to answer. */
export interface HandlerTarget {
  healthy: boolean;
  podIP: string;
  /** The behaviour model's `responseTime`: exec outside the command forms, httpGet, tcpSocket and grpc take this long. */
  responseTimeMs: number;
  /** The container's environment and the time, for an exec command's script ($VAR, date). */
  env?: () => Readonly<Record<string, string>>;
  now?: number;
  /** What the kubelet answers an exec command (cat, touch, rm over the container's files; nslookup). */
  command?: (argv: readonly string[]) => CommandHook | undefined;
  /** The container's files, for an exec command's redirections (`echo ... > /usr/share/message`). */
  files?: ShellFiles;
  /** The container's ports, for handlers that name one. */
  ports?: readonly { name?: string; containerPort: number }[];
  /** The behaviour annotation's `ready` decides probes: `healthy` answers them, exec command forms included. */
  readyDecidesProbes?: boolean;
}

/** A named port resolves against the container's ports, as the kubelet's prober does. */
export function portOf(port: number | string | undefined, target: HandlerTarget): string {
  if (typeof port === 'string') return String(target.ports?.find((p) => p.name === port)?.containerPort ?? port);
  return port === undefined ? '' : String(port);
}

/** Runs `action` against the container. */
export function runHandler(action: Readonly<Action>, target: HandlerTarget): HandlerResult {
  return handle(action, target, true);
}

function handle(action: Readonly<Action>, target: HandlerTarget, commandForms: boolean): HandlerResult {
  if (action.sleep) return { ok: true, output: '', durationMs: Math.max(0, action.sleep.seconds) * 1000 };
  const durationMs = target.responseTimeMs;
  if (action.exec) {
    const argv = [...(action.exec.command ?? [])];
    const form = argv.length && commandForms ? runCommandForm(argv, target.env?.() ?? {}, target.now ?? 0, target.command, target.files) : undefined;
    if (form?.exitCode === 0) return { ok: true, output: form.output, durationMs: form.durationMs ?? 0 };
    if (form) return { ok: false, output: form.output, durationMs: form.durationMs ?? 0, error: execSyncError(argv, form.exitCode, form.stderr) };
    if (target.healthy) return { ok: true, output: '', durationMs };
    const cat = argv[0] === 'cat' && argv[1] ? `cat: can't open '${argv[1]}': No such file or directory\n` : '';
    return { ok: false, output: cat, durationMs, error: execSyncError(argv, 1, cat) };
  }
  if (target.healthy) return { ok: true, output: '', durationMs };
  if (action.httpGet) {
    // A hook fails on no HTTP status, only when the request does: the server is not listening yet.
    const h = action.httpGet;
    const refused = `Get ${JSON.stringify(probeURL(h, target))}: dial tcp ${h.host ?? target.podIP}:${portOf(h.port, target)}: connect: connection refused`;
    return { ok: false, output: 'HTTP probe failed with statuscode: 503', durationMs, error: refused };
  }
  if (action.tcpSocket) {
    const host = action.tcpSocket.host ?? target.podIP;
    return { ok: false, output: `dial tcp ${host}:${portOf(action.tcpSocket.port, target)}: connect: connection refused`, durationMs };
  }
  if (action.grpc) return { ok: false, output: 'service unhealthy (responded with "NOT_SERVING")', durationMs };
  return { ok: true, output: '', durationMs };
}

/** The runtime's ExecSync error for a command that exited non-zero (pkg/kubelet/cri/remote/remote_runtime.go). */
function execSyncError(argv: readonly string[], exitCode: number, stderr: string): string {
  return `command '${argv.join(' ')}' exited with ${exitCode}: ${stderr}`;
}

/**
 * What a failed lifecycle hook reports (the waiting message of PostStartHookError); `pod` is
 * format.Pod's name_namespace(uid). Upstream: pkg/kubelet/lifecycle/handlers.go (Run).
 */
export function hookFailureMessage(action: Readonly<Action>, res: HandlerResult, container: string, pod: string): string {
  const where = `for Container ${JSON.stringify(container)} in Pod ${JSON.stringify(pod)} failed - error: ${res.error ?? ''}`;
  if (action.httpGet) return `HTTP lifecycle hook (${action.httpGet.path ?? ''}) ${where}`;
  return `Exec lifecycle hook ([${(action.exec?.command ?? []).join(' ')}]) ${where}, message: ${JSON.stringify(res.output)}`;
}

/**
 * A probe: the handler, bounded by timeoutSeconds (default 1). One that outlasts it fails with the
 * error each upstream prober reports: the runtime's deadline for exec (ExecProbeTimeout, GA), Go's
 * HTTP client timeout, the dial timeout, the gRPC health RPC deadline.
 * Upstream: pkg/probe/{exec,http,tcp,grpc}, pkg/kubelet/cri/remote/remote_runtime.go ExecSync.
 */
export function runProbe(probe: Readonly<Probe>, target: HandlerTarget): HandlerResult {
  const res = handle(probe, target, target.readyDecidesProbes !== true);
  const timeoutSeconds = probe.timeoutSeconds ?? 1;
  const limitMs = timeoutSeconds * 1000;
  if (res.durationMs <= limitMs) return res;
  return { ok: false, output: timeoutOutput(probe, target, timeoutSeconds), durationMs: limitMs };
}

/** The URL an httpGet probe asks: its host, else the pod's IP, and its named or numbered port. */
export function probeURL(h: NonNullable<Probe['httpGet']>, target: HandlerTarget): string {
  const path = h.path ?? '/';
  return `${(h.scheme ?? 'HTTP').toLowerCase()}://${h.host ?? target.podIP}:${portOf(h.port, target)}${path.startsWith('/') ? path : `/${path}`}`;
}

/** What each upstream prober reports for an attempt that outlasted timeoutSeconds. */
export function timeoutOutput(probe: Readonly<Probe>, target: HandlerTarget, timeoutSeconds: number): string {
  if (probe.httpGet) return `Get ${JSON.stringify(probeURL(probe.httpGet, target))}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
  if (probe.tcpSocket) return `dial tcp ${probe.tcpSocket.host ?? target.podIP}:${portOf(probe.tcpSocket.port, target)}: i/o timeout`;
  if (probe.grpc) return `timeout: health rpc did not complete within ${goDuration(timeoutSeconds)}`;
  return `command ${JSON.stringify((probe.exec?.command ?? []).join(' '))} timed out`;
}

/** time.Duration.String() of whole seconds: 1s, 1m30s, 1h0m0s. */
function goDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
