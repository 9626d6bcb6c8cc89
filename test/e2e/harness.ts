// End-to-end harness: starts the real `drydock up` binary on an ephemeral loopback port
// with a temporary kubeconfig, and runs the real kubectl against it.
// KUBECTL picks the client binary (default: kubectl.1.33 beside the `kubectl` on PATH).
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before } from 'node:test';

// The shipped executable (the bundle `npm run build` writes), run as users run it: its shell line starts node from the startup snapshot.
const mainScript = resolve(import.meta.dirname, '../../drydock.mjs');

export function kubectlBinary(): string {
  if (process.env.KUBECTL) return process.env.KUBECTL;
  const which = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' });
  const onPath = which.stdout.trim();
  if (!onPath) return 'kubectl';
  return join(dirname(realpathSync(onPath)), 'kubectl.1.33');
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Drydock extends AsyncDisposable {
  readonly url: string;
  readonly kubeconfig: string;
  readonly dir: string;
  readonly process: ChildProcess;
  readonly output: () => string;
  kubectl(args: readonly string[], options?: { input?: string; binary?: string; timeoutMs?: number }): Promise<KubectlResult>;
  /** kubectl that must succeed: its stdout, or an assertion failure with the command and its stderr. */
  ok(args: readonly string[], options?: { input?: string; timeoutMs?: number }): Promise<string>;
  /** Runs `drydock node <args> --kubeconfig <this cluster's>`, as a user changes the running cluster. */
  node(args: readonly string[]): Promise<KubectlResult>;
  /** Starts kubectl and returns it without waiting (for -w). */
  spawnKubectl(args: readonly string[], options?: { binary?: string; env?: Record<string, string> }): ChildProcess;
  writeFile(name: string, text: string): string;
  stop(): Promise<void>;
}

/** A cluster config of `count` CPU nodes (`cpu-0`, `cpu-1`, ...) of 8 CPUs and 32 GiB each. */
export function cpuNodesConfig(count: number): string {
  return `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: cpu
  count: ${count}
  capacity: {cpu: "8", memory: 32Gi}
`;
}

export interface StartOptions {
  config?: string;
  args?: readonly string[];
  env?: Readonly<Record<string, string>>;
}

/**
 * One cluster for the enclosing describe: started in its before hook, stopped in its after hook.
 * The Drydock returned forwards to it, so the suite's tests use it as startDrydock's own.
 */
export function drydockForSuite(options: StartOptions = {}): Drydock {
  let started: Drydock | undefined;
  before(async () => {
    started = await startDrydock(options);
  });
  after(async () => {
    await started?.stop();
  });
  const live = (): Drydock => {
    if (!started) throw new Error("the suite's cluster is not running (used outside its tests?)");
    return started;
  };
  const stop = async (): Promise<void> => started?.stop();
  return {
    get url() {
      return live().url;
    },
    get kubeconfig() {
      return live().kubeconfig;
    },
    get dir() {
      return live().dir;
    },
    get process() {
      return live().process;
    },
    output: () => live().output(),
    kubectl: (args, opts) => live().kubectl(args, opts),
    ok: (args, opts) => live().ok(args, opts),
    node: (args) => live().node(args),
    spawnKubectl: (args, opts) => live().spawnKubectl(args, opts),
    writeFile: (name, text) => live().writeFile(name, text),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

export async function startDrydock(options: StartOptions = {}): Promise<Drydock> {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-e2e-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const cacheDir = join(dir, 'cache');
  const args = ['up', '--port', '0', '--kubeconfig', kubeconfig, ...(options.args ?? [])];
  if (options.config) {
    writeFileSync(join(dir, 'cluster.yaml'), options.config);
    args.push('--config', join(dir, 'cluster.yaml'));
  }
  const child = spawn(mainScript, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = globalThis.setTimeout(() => reject(new Error(`drydock did not become ready:\n${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const m = /ready: (\S+)/.exec(output);
      if (m?.[1]) {
        globalThis.clearTimeout(timer);
        resolveUrl(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      globalThis.clearTimeout(timer);
      reject(new Error(`drydock exited with ${code}:\n${output}`));
    });
  });
  const run = (argv: readonly string[], opts: { input?: string; binary?: string; timeoutMs?: number; command?: readonly string[] } = {}): Promise<KubectlResult> =>
    new Promise((resolveRun) => {
      const [file, ...prefix] = opts.command ?? [opts.binary ?? kubectlBinary(), '--kubeconfig', kubeconfig, '--cache-dir', cacheDir];
      const proc = spawn(file ?? '', [...prefix, ...argv], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const timer = globalThis.setTimeout(() => proc.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
      proc.on('close', (code) => {
        globalThis.clearTimeout(timer);
        resolveRun({ code: code ?? -1, stdout, stderr });
      });
      proc.stdin.end(opts.input ?? '');
    });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    url,
    kubeconfig,
    dir,
    process: child,
    output: () => output,
    kubectl: run,
    ok: async (argv, opts = {}) => {
      const r = await run(argv, { timeoutMs: 90_000, ...opts });
      if (r.code !== 0) throw new Error(`kubectl ${argv.join(' ')} exited ${r.code}\n${r.stderr}`);
      return r.stdout;
    },
    node: (argv) => run([...argv, '--kubeconfig', kubeconfig], { command: [mainScript, 'node'] }),
    spawnKubectl: (argv, opts = {}) => spawn(opts.binary ?? kubectlBinary(), ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } }),
    writeFile: (name, text) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** Masks what changes from run to run: ages, uids, resourceVersions, generated suffixes. */
export function normalize(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>')
    .replace(/\b\d+(\.\d+)?(ms|s|m|h|d)\b/g, '<age>');
}

export function readKubeconfigToken(path: string): string {
  const m = /token: (\S+)/.exec(readFileSync(path, 'utf8'));
  return m?.[1] ?? '';
}
