// Probes of a container the process runtime runs on this machine, made for real: exec runs the
// command, httpGet and tcpSocket reach the container's port on loopback (the host process listens
// there, not on its pod IP), each bounded by timeoutSeconds, with the upstream probers' failure words.
// gRPC probes keep the simulated answer. Upstream: pkg/probe/{exec,http,tcp}, pkg/kubelet/prober/prober.go.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { runProbe } from './handlers.ts';
import type { HandlerResult, HandlerTarget } from './handlers.ts';
import type { Probe } from './types.ts';

const loopback = '127.0.0.1';

export async function runHostProbe(probe: Readonly<Probe>, target: HandlerTarget, env: Readonly<Record<string, string>>): Promise<HandlerResult> {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
  const started = Date.now();
  const done = (ok: boolean, output: string): HandlerResult => ({ ok, output, durationMs: Date.now() - started });
  if (probe.exec) return execProbe(probe.exec.command ?? [], env, timeoutMs, done);
  if (probe.httpGet) {
    const h = probe.httpGet;
    const path = h.path ?? '/';
    const url = `${(h.scheme ?? 'HTTP').toLowerCase()}://${h.host ?? loopback}:${portOf(h.port, target)}${path.startsWith('/') ? path : `/${path}`}`;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
      await res.arrayBuffer();
      return res.status >= 200 && res.status < 400 ? done(true, '') : done(false, `HTTP probe failed with statuscode: ${res.status}`);
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') return done(false, `Get ${JSON.stringify(url)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);
      return done(false, `Get ${JSON.stringify(url)}: dial tcp ${h.host ?? loopback}:${portOf(h.port, target)}: connect: connection refused`);
    }
  }
  if (probe.tcpSocket) {
    const host = probe.tcpSocket.host ?? loopback;
    const port = portOf(probe.tcpSocket.port, target);
    return new Promise((resolve) => {
      const socket = connect({ host, port: Number(port), timeout: timeoutMs });
      socket.once('connect', () => (socket.destroy(), resolve(done(true, ''))));
      socket.once('timeout', () => (socket.destroy(), resolve(done(false, `dial tcp ${host}:${port}: i/o timeout`))));
      socket.once('error', () => resolve(done(false, `dial tcp ${host}:${port}: connect: connection refused`)));
    });
  }
  return runProbe(probe, target);
}

function execProbe(argv: readonly string[], env: Readonly<Record<string, string>>, timeoutMs: number, done: (ok: boolean, output: string) => HandlerResult): Promise<HandlerResult> {
  return new Promise((resolve) => {
    const [file = '', ...args] = argv;
    let output = '';
    const child = spawn(file, args, { env: { ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(done(false, `command ${JSON.stringify(argv.join(' '))} timed out`));
    }, timeoutMs);
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve(done(false, error.message));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(done(code === 0, output));
    });
  });
}

function portOf(port: number | string | undefined, target: HandlerTarget): string {
  if (typeof port === 'string') return String(target.ports?.find((p) => p.name === port)?.containerPort ?? port);
  return port === undefined ? '' : String(port);
}
