// Probes of a container the process runtime runs on this machine, made for real: exec runs the
// command, httpGet and tcpSocket reach the container's port on loopback (the host process listens
// there, not on its pod IP), each bounded by timeoutSeconds, with the upstream probers' failure words.
// gRPC probes keep the simulated answer. Upstream: pkg/probe/{exec,http,tcp}, pkg/kubelet/prober/prober.go.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import type { Clock } from '../core/index.ts';
import { portOf, probeURL, runProbe, timeoutOutput } from './handlers.ts';
import type { HandlerResult, HandlerTarget } from './handlers.ts';
import type { Probe } from './types.ts';

const loopback = '127.0.0.1';

export async function runHostProbe(probe: Readonly<Probe>, podTarget: HandlerTarget, env: Readonly<Record<string, string>>, clock: Clock): Promise<HandlerResult> {
  // The host process listens on loopback, where its pod IP would be.
  const target: HandlerTarget = { ...podTarget, podIP: loopback };
  const timeoutSeconds = probe.timeoutSeconds ?? 1;
  const timeoutMs = timeoutSeconds * 1000;
  const timedOut = (): HandlerResult => done(false, timeoutOutput(probe, target, timeoutSeconds));
  const started = clock.now();
  const done = (ok: boolean, output: string): HandlerResult => ({ ok, output, durationMs: clock.now() - started });
  if (probe.exec) return execProbe(probe.exec.command ?? [], env, timeoutMs, clock, done, timedOut);
  if (probe.httpGet) {
    const h = probe.httpGet;
    const url = probeURL(h, target);
    const abort = new AbortController();
    let expired = false;
    const timer = clock.after(timeoutMs, () => {
      expired = true;
      abort.abort();
    });
    try {
      const res = await fetch(url, { signal: abort.signal, redirect: 'manual' });
      await res.arrayBuffer();
      return res.status >= 200 && res.status < 400 ? done(true, '') : done(false, `HTTP probe failed with statuscode: ${res.status}`);
    } catch {
      if (expired) return timedOut();
      return done(false, `Get ${JSON.stringify(url)}: dial tcp ${h.host ?? loopback}:${portOf(h.port, target)}: connect: connection refused`);
    } finally {
      timer.cancel();
    }
  }
  if (probe.tcpSocket) {
    const host = probe.tcpSocket.host ?? loopback;
    const port = portOf(probe.tcpSocket.port, target);
    return new Promise((resolve) => {
      const socket = connect({ host, port: Number(port) });
      const timer = clock.after(timeoutMs, () => (socket.destroy(), resolve(timedOut())));
      socket.once('connect', () => (timer.cancel(), socket.destroy(), resolve(done(true, ''))));
      socket.once('error', () => (timer.cancel(), resolve(done(false, `dial tcp ${host}:${port}: connect: connection refused`))));
    });
  }
  return runProbe(probe, target);
}

function execProbe(argv: readonly string[], env: Readonly<Record<string, string>>, timeoutMs: number, clock: Clock, done: (ok: boolean, output: string) => HandlerResult, timedOut: () => HandlerResult): Promise<HandlerResult> {
  return new Promise((resolve) => {
    const [file = '', ...args] = argv;
    let output = '';
    const child = spawn(file, args, { env: { ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = clock.after(timeoutMs, () => {
      child.kill('SIGKILL');
      resolve(timedOut());
    });
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', (error) => {
      timer.cancel();
      resolve(done(false, error.message));
    });
    child.once('close', (code) => {
      timer.cancel();
      resolve(done(code === 0, output));
    });
  });
}
