// Probe and lifecycle-hook handlers evaluated against the behaviour model: exec commands in the simple
// command forms run as such (`exit 1` fails, `sleep 5` takes 5 s); other exec, httpGet, tcpSocket and
// grpc actions succeed once the container is healthy (`ready:` after start). Pure.
// Upstream: pkg/kubelet/prober/prober.go, pkg/probe/{http,tcp,grpc,exec}, pkg/kubelet/lifecycle/handlers.go.
import { commandFormBehaviour } from '../api/index.ts';
import type { Probe } from './types.ts';

export interface HandlerResult {
  ok: boolean;
  /** What the probe or hook printed (the Unhealthy event's detail). */
  output: string;
  /** How long the handler ran. */
  durationMs: number;
}

type Action = Pick<Probe, 'exec' | 'httpGet' | 'tcpSocket' | 'grpc'> & { sleep?: { seconds: number } };

function portOf(port: number | string | undefined): string {
  return port === undefined ? '' : String(port);
}

/** Runs `action` against a container that is (or is not) healthy now. */
export function runHandler(action: Readonly<Action>, healthy: boolean, podIP: string): HandlerResult {
  if (action.sleep) return { ok: true, output: '', durationMs: Math.max(0, action.sleep.seconds) * 1000 };
  if (action.exec) {
    const argv = [...(action.exec.command ?? [])];
    const form = argv.length ? commandFormBehaviour(argv) : undefined;
    if (form) {
      const code = form.exitCode ?? 0;
      const output = (form.logs ?? []).map((l) => `${l.text}\n`).join('');
      return { ok: code === 0, output, durationMs: form.runForMs ?? 0 };
    }
    if (healthy) return { ok: true, output: '', durationMs: 0 };
    const cat = argv[0] === 'cat' && argv[1] ? `cat: can't open '${argv[1]}': No such file or directory\n` : '';
    return { ok: false, output: cat, durationMs: 0 };
  }
  if (healthy) return { ok: true, output: '', durationMs: 0 };
  if (action.httpGet) return { ok: false, output: 'HTTP probe failed with statuscode: 503', durationMs: 0 };
  if (action.tcpSocket) {
    const host = action.tcpSocket.host ?? podIP;
    return { ok: false, output: `dial tcp ${host}:${portOf(action.tcpSocket.port)}: connect: connection refused`, durationMs: 0 };
  }
  if (action.grpc) return { ok: false, output: 'service unhealthy (responded with "NOT_SERVING")', durationMs: 0 };
  return { ok: true, output: '', durationMs: 0 };
}
