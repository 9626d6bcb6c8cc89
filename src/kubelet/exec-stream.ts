// `kubectl exec` and `attach` into a simulated container over WebSocket (v5.channel.k8s.io, what kubectl 1.30+
// speaks first) or SPDY (exec-transport.ts): the standard streams, and the command's end as a
// metav1.Status on the error stream. The command runs in exec-shell.ts, a
// terminal's (-t) typing through terminal-line.ts. A host process's container (runtime: process)
// execs a real process instead.
// Upstream: apiserver/pkg/util/proxy/websocket.go (createWebSocketStreams), kubelet's
// cri/streaming/remotecommand/exec.go (ServeExec), containerd's streamRuntime.Exec.
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Clock } from '../core/index.ts';
import { internalError, nextTurn } from '../core/index.ts';
import { isInteractiveShell } from '../api/index.ts';
import { readsStdinWhole, runExec, ShellSession, simulatedCommands, unsimulatedCommand } from './exec-shell.ts';
import type { ExecContext, ExecRun, ExecStep } from './exec-shell.ts';
import type { LogBuffer } from './logs.ts';
import { formatLogLine } from './logs.ts';
import { processExitCode, startFailure } from './process-container.ts';
import { readTerminal } from './terminal-line.ts';
import { errorStream, spdyTransport, stderrStream, stdoutStream, wantsExecSpdy, webSocketTransport } from './exec-transport.ts';
import type { ExecTransport } from './exec-transport.ts';

export const execProtocol = 'v5.channel.k8s.io';
/**
 * What the kubelet's own WebSocket server also speaks, which the API server proxies to for clients
 * that do not offer v5 (the Python and JavaScript clients): v5 without the close signal.
 */
const execProtocols = [execProtocol, 'v4.channel.k8s.io'];
const sigkillExitCode = 137;
/** A root shell's prompt. */
const prompt = '# ';

export interface ExecOptions {
  argv: readonly string[];
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** Whether the request asks to become a WebSocket speaking a remote command protocol we serve. */
export function wantsExecWebSocket(req: IncomingMessage): boolean {
  return (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

/** The newest remote command protocol the client offers that is served, if any. */
export function chosenExecProtocol(req: IncomingMessage): string | undefined {
  const offered = new Set((req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()));
  return execProtocols.find((p) => offered.has(p));
}

/** The supported list as the refusal of an unsupported offer names it. */
export const servedExecProtocols = execProtocols.join(' ');

type Status = Record<string, unknown>;

const success: Status = { metadata: {}, status: 'Success' };

/** The kubelet's status for a command that exited non-zero, with containerd's words for it. */
function exitStatus(argv: readonly string[], code: number): Status {
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${argv.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  };
}

/** apierrors.NewInternalError's status, as the kubelet writes a command the runtime could not start (no kind or apiVersion). */
function internalErrorStatus(message: string): Status {
  const { kind: _kind, apiVersion: _apiVersion, ...status } = internalError(message).toStatus();
  return status;
}

/**
 * Upgrades the request and runs the command against `context`. `res` answers nothing: the socket
 * becomes the WebSocket or the SPDY session (it carries the 101 for the request metrics).
 */
export async function serveExec(req: IncomingMessage, res: ServerResponse, clock: Clock, options: ExecOptions, target: ExecTarget): Promise<void> {
  const transport = await upgrade(req, res, options);
  if (transport) await new ExecSession(transport, clock, options, target.context).run(target);
}

/** What an exec runs against: the container's context, its output (closed when it exits), a host process's. */
export interface ExecTarget {
  context: ExecContext;
  logs: LogBuffer;
  host?: HostExec;
}

let loaded: typeof import('ws') | undefined;

/**
 * ws, loaded from node_modules on the first exec as better-sqlite3 is (src/storage/sqlite.ts): it
 * requires node:http as it loads, which a startup snapshot cannot hold, and left out of the bundle it
 * costs the start-up nothing.
 */
export function webSockets(): typeof import('ws') {
  return (loaded ??= createRequire(import.meta.url)('ws') as typeof import('ws'));
}

/**
 * The request's socket as the session's transport: a WebSocket speaking the protocol chosen from the
 * client's offer, or a SPDY session once its streams are open (undefined if the client left first).
 */
async function upgrade(req: IncomingMessage, res: ServerResponse, options: ExecOptions): Promise<ExecTransport | undefined> {
  res.statusCode = 101;
  if (wantsExecSpdy(req)) return spdyTransport(req, options);
  const { WebSocketServer } = webSockets();
  const server = new WebSocketServer({ noServer: true, handleProtocols: () => chosenExecProtocol(req) ?? false });
  return webSocketTransport(await new Promise<WebSocket>((resolve) => server.handleUpgrade(req, req.socket as Duplex, Buffer.alloc(0), resolve)));
}

/** What an attach joins: the container's output and, for a shell reading stdin, that shell. */
export interface AttachTarget {
  logs: LogBuffer;
  context: ExecContext;
  shell?: { exit(code: number): void; stdinOnce: boolean };
}

/**
 * Attaches to a running container: its output from now until it exits (then Success, as the kubelet's
 * ServeAttach), and for a shell reading stdin, the client's input as that shell's.
 */
export async function serveAttach(req: IncomingMessage, res: ServerResponse, clock: Clock, options: ExecOptions, target: AttachTarget): Promise<void> {
  const transport = await upgrade(req, res, options);
  if (transport) await new ExecSession(transport, clock, options, target.context).attach(target);
}

/** Where a host process's exec runs: its environment and working directory. */
export interface HostExec {
  env: Readonly<Record<string, string>>;
  workingDir: string;
}

/** A terminal's output translation (onlcr): each bare newline goes out as CR LF. */
function terminalLines(data: string | Buffer): string | Buffer {
  if (typeof data === 'string') return data.replace(/\r?\n/g, '\r\n');
  return Buffer.from(data.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
}

class ExecSession {
  readonly #transport: ExecTransport;
  readonly #clock: Clock;
  readonly #options: ExecOptions;
  readonly #context: ExecContext;
  readonly #closed = new AbortController();
  /** The container stopped, and with it what runs in it. */
  readonly #killed = new AbortController();
  /** Either: what runs stops. */
  readonly #stopped = AbortSignal.any([this.#closed.signal, this.#killed.signal]);
  /** Standard input not read yet (as text, a character split between chunks kept whole), and whether it has ended. */
  #input = '';
  readonly #decoder = new StringDecoder('utf8');
  /** Standard input's bytes, kept for a command that reads them whole (tar x), until run() knows. */
  #bytes: Buffer[] | undefined = [];
  #inputEnded = false;
  #wakeInput: (() => void) | undefined;
  /** Where standard input goes instead, for a host process. */
  #onInput: ((data: Buffer) => void) | undefined;
  #onInputEnd: (() => void) | undefined;

  constructor(transport: ExecTransport, clock: Clock, options: ExecOptions, context: ExecContext) {
    this.#transport = transport;
    this.#clock = clock;
    this.#options = options;
    this.#context = context;
    transport.listen({
      input: (data) => {
        if (this.#onInput) this.#onInput(data);
        else {
          this.#input += this.#decoder.write(data);
          this.#bytes?.push(data);
        }
        this.#wake();
      },
      inputEnd: () => this.#endInput(),
      closed: () => this.#closed.abort(),
    });
  }

  async run(target: ExecTarget): Promise<void> {
    const { argv, stdout, stderr } = this.#options;
    const host = target.host;
    // The empty message on the lowest writable stream tells the client the streams are open.
    this.#send(stdout ? stdoutStream : stderr ? stderrStream : errorStream, '');
    // When the container stops, the runtime kills what was exec'd in it (SIGKILL: 137).
    const unfollow = target.logs.follow((line) => {
      if (line) return;
      this.#killed.abort();
      this.#wake();
    });
    let status: Status;
    const unsimulated = unsimulatedCommand(argv);
    const readsInput = !host && unsimulated === undefined && readsStdinWhole(argv);
    if (!readsInput) this.#bytes = undefined;
    if (host) {
      const end = await this.#onHost(host);
      status = 'exitCode' in end ? (end.exitCode === 0 ? success : exitStatus(argv, end.exitCode)) : internalErrorStatus(`error executing command in container: failed to exec in container: ${end.error}`);
    } else if (unsimulated !== undefined) {
      status = internalErrorStatus(`error executing command in container: failed to exec in container: ${JSON.stringify(unsimulated)} is not simulated: a simulated container runs ${simulatedCommands}, alone or in sh -c`);
    } else {
      const stdin = readsInput ? await this.#allInput() : undefined;
      const code = isInteractiveShell(argv) ? (await this.#shell(true)).status : await this.#play(runExec(argv, this.#context, stdin));
      const killed = this.#killed.signal.aborted ? sigkillExitCode : code;
      status = killed === 0 ? success : exitStatus(argv, killed);
    }
    unfollow();
    await this.#end(status);
  }

  /**
   * The status, then the close. A real process exits a moment after its last write; sent in the same
   * write as the output, the end is missed by the Python client (22.x), which polls the raw socket for
   * each frame and does not see frames its TLS layer has already read.
   */
  async #end(status: Status): Promise<void> {
    await nextTurn();
    if (this.#closed.signal.aborted) return;
    this.#transport.end(JSON.stringify(status));
  }

  async attach(target: AttachTarget): Promise<void> {
    const { stdout, stderr } = this.#options;
    this.#send(stdout ? stdoutStream : stderr ? stderrStream : errorStream, '');
    const ended = new Promise<void>((resolve) => {
      const stop = target.logs.follow((line) => {
        if (line) return this.#write('stdout', formatLogLine(line, false));
        stop();
        resolve();
      });
      this.#closed.signal.addEventListener('abort', () => {
        stop();
        resolve();
      });
    });
    if (target.shell && this.#options.stdin) {
      const code = await this.#shell(false);
      // Its stdin ends with this session's when the spec says stdinOnce (kubectl run -it --rm): EOF, so it exits.
      if (code.exited || target.shell.stdinOnce) target.shell.exit(code.status);
    }
    await ended;
    await this.#end(success);
  }

  /**
   * The command as a host process beside the container's (runtime: process): standard input from the
   * client, its output as written (a terminal's too: there is no pty), killed if the client leaves.
   */
  #onHost(host: HostExec): Promise<{ exitCode: number } | { error: string }> {
    const [file = '', ...args] = this.#options.argv;
    const child = spawn(file, args, { env: { ...host.env }, cwd: host.workingDir, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => this.#write('stdout', chunk));
    child.stderr.on('data', (chunk: Buffer) => this.#write('stderr', chunk));
    child.stdin.on('error', () => {});
    this.#onInput = (data) => child.stdin.write(data);
    this.#onInputEnd = () => child.stdin.end();
    if (this.#inputEnded || !this.#options.stdin) child.stdin.end();
    this.#stopped.addEventListener('abort', () => child.kill('SIGKILL'));
    return new Promise((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) => resolve({ error: `OCI runtime exec failed: exec failed: unable to start container process: ${startFailure(file, error)}: unknown` }));
      child.once('close', (code: number | null, signal: NodeJS.Signals | null) => resolve({ exitCode: processExitCode(code, signal) }));
    });
  }

  /** Plays a run's output and pauses; its exit code. */
  async #play(run: ExecRun): Promise<number> {
    for (const step of run.steps) if (!(await this.#step(step))) break;
    return run.exitCode;
  }

  async #step(step: ExecStep): Promise<boolean> {
    const stopped = this.#stopped;
    if (stopped.aborted) return false;
    if ('sleepMs' in step) {
      if (step.sleepMs === null) await new Promise<void>((resolve) => stopped.addEventListener('abort', () => resolve()));
      else await this.#clock.sleep(step.sleepMs, stopped).catch(() => {});
      return !stopped.aborted;
    }
    this.#write(step.stream, step.text);
    return true;
  }

  /**
   * A shell reading standard input: lines as they come, or a terminal's, until exit or end of input.
   * An attached shell has printed its first prompt before anyone attached (`promptFirst` false).
   */
  async #shell(promptFirst: boolean): Promise<{ status: number; exited: boolean }> {
    const session = new ShellSession(this.#context);
    let status = 0;
    if (!this.#options.stdin) return { status, exited: false };
    for (let first = true; ; first = false) {
      if (this.#options.tty && (promptFirst || !first)) this.#write('stdout', prompt);
      const line = this.#options.tty ? await this.#terminalLine() : await this.#inputLine();
      if (line === undefined || this.#killed.signal.aborted) return { status, exited: false };
      const run = session.run(line);
      await this.#play(run);
      status = run.exitCode;
      if (run.exited || this.#closed.signal.aborted) return { status, exited: run.exited };
    }
  }

  /** The next line of standard input (without its newline); undefined at its end. */
  async #inputLine(): Promise<string | undefined> {
    for (;;) {
      const at = this.#input.indexOf('\n');
      if (at >= 0) {
        const line = this.#input.slice(0, at);
        this.#input = this.#input.slice(at + 1);
        return line;
      }
      if (this.#inputEnded || this.#killed.signal.aborted) {
        const rest = this.#input;
        this.#input = '';
        return rest === '' ? undefined : rest;
      }
      await new Promise<void>((resolve) => (this.#wakeInput = resolve));
    }
  }

  /** A line typed at the terminal (terminal-line.ts); undefined at the end of input. */
  async #terminalLine(): Promise<string | undefined> {
    let partial = '';
    for (;;) {
      const read = readTerminal(this.#input, partial, prompt);
      this.#input = read.rest;
      partial = read.partial;
      this.#write('stdout', read.echo);
      if (read.line !== undefined) return read.line ?? undefined;
      if (this.#inputEnded || this.#killed.signal.aborted) return undefined;
      await new Promise<void>((resolve) => (this.#wakeInput = resolve));
    }
  }

  /** Standard input's bytes once it has ended (nothing without -i); undefined if the container stopped first. */
  async #allInput(): Promise<Buffer | undefined> {
    while (this.#options.stdin && !this.#inputEnded && !this.#stopped.aborted) await new Promise<void>((resolve) => (this.#wakeInput = resolve));
    if (this.#stopped.aborted) return undefined;
    const bytes = Buffer.concat(this.#bytes ?? []);
    this.#bytes = undefined;
    return bytes;
  }

  #endInput(): void {
    this.#inputEnded = true;
    this.#onInputEnd?.();
    this.#wake();
  }

  #wake(): void {
    const wake = this.#wakeInput;
    this.#wakeInput = undefined;
    wake?.();
  }

  /** Output as the process writes it: a terminal takes stderr on stdout and turns LF into CR LF. */
  #write(stream: 'stdout' | 'stderr', data: string | Buffer): void {
    const { tty, stdout, stderr } = this.#options;
    if (tty) {
      if (stdout) this.#send(stdoutStream, terminalLines(data));
    } else if (stream === 'stdout' ? stdout : stderr) {
      this.#send(stream === 'stdout' ? stdoutStream : stderrStream, data);
    }
  }

  #send(stream: number, data: string | Buffer): void {
    this.#transport.send(stream, data);
  }
}
