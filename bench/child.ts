// Child processes for the start-up figures: spawn until a line shows on stdout, stop, and the
// environment variants a start-up figure is printed for.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`no ${String(pattern)} within 30 s: ${out}`)), 30_000);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        res(m[0]);
      }
    });
  });
}

/** The `drydock` executable as `npm start` and npm's bin link run it: through its shell line. */
export const drydockExecutable = resolve(import.meta.dirname, '../drydock.mjs');

/**
 * The V8 flags the executable runs node with (its shell line's `exec node <flags> "$0"`), for the
 * benchmarks that run a cluster in their own process: they measure it under the same V8 settings.
 */
export function drydockNodeFlags(): string[] {
  const line = readFileSync(drydockExecutable, 'utf8').split('\n', 2)[1] ?? '';
  return (/exec node (.*) "\$0" "\$@"$/.exec(line)?.[1] ?? '').split(' ').filter((flag) => flag.startsWith('--'));
}

/** Runs `node args...` until stdout matches `pattern`; `ms` is from spawn to the match. */
export function spawnNodeUntil(args: string[], pattern: RegExp, env: NodeJS.ProcessEnv = process.env): Promise<{ ms: number; line: string; child: ChildProcess }> {
  return spawnUntil(process.execPath, args, pattern, env);
}

/**
 * Runs `drydock args...` until stdout matches `pattern`; `ms` is from spawn to the match. Extra node
 * flags (`--cpu-prof`, which NODE_OPTIONS refuses) go to node beside the executable's own, with its
 * startup snapshot when the build made one, as the executable would start.
 */
export function spawnDrydockUntil(args: string[], pattern: RegExp, env: NodeJS.ProcessEnv = process.env, nodeFlags: string[] = []): Promise<{ ms: number; line: string; child: ChildProcess }> {
  if (nodeFlags.length === 0) return spawnUntil(drydockExecutable, args, pattern, env);
  const blob = resolve(import.meta.dirname, '../drydock.blob');
  const start = existsSync(blob) ? ['--snapshot-blob', blob] : [drydockExecutable];
  return spawnUntil(process.execPath, [...drydockNodeFlags(), ...nodeFlags, ...start, ...args], pattern, handedOver(env));
}

/** The environment the executable's shell line gives node: NODE_EXTRA_CA_CERTS handed over as DRYDOCK_EXTRA_CA_CERTS. */
function handedOver(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: extra, ...rest } = env;
  return extra ? { ...rest, DRYDOCK_EXTRA_CA_CERTS: extra } : env;
}

async function spawnUntil(command: string, args: string[], pattern: RegExp, env: NodeJS.ProcessEnv): Promise<{ ms: number; line: string; child: ChildProcess }> {
  const t0 = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'], env });
  const line = await waitForLine(child, pattern);
  return { ms: performance.now() - t0, line, child };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
}

/** A bare node:http server's spawn until it listens: the floor of any Node server's start. */
export const bareServerArgs = ['-e', "require('http').createServer((q,s)=>s.end('{}')).listen(0,'127.0.0.1',function(){console.log('port '+this.address().port)})"];

/**
 * The environments a start-up is measured in: as inherited, and, when it is set, without
 * NODE_EXTRA_CA_CERTS, which Node 20 reads and parses at every process start whatever the program
 * (a machine-wide CA bundle costs tens of ms before the first line of JavaScript runs).
 */
export function startEnvironments(): { name: string; env: NodeJS.ProcessEnv }[] {
  const inherited = { name: 'inherited environment', env: process.env };
  if (!process.env.NODE_EXTRA_CA_CERTS) return [inherited];
  const { NODE_EXTRA_CA_CERTS: _, ...rest } = process.env;
  return [{ name: 'inherited (NODE_EXTRA_CA_CERTS set)', env: process.env }, { name: 'NODE_EXTRA_CA_CERTS unset', env: rest }];
}
