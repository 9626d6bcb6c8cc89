// Container logs as the kubelet keeps them: one buffer per container instance (current and previous),
// lines with timestamps, readable with the PodLogOptions semantics and followable.
// Upstream: pkg/kubelet/kuberuntime/logs (ReadLogs), pkg/kubelet/kubelet_pods.go (GetContainerLogs).

export interface LogLine {
  at: number;
  text: string;
  /** Output the process ended without a newline (CRI's `P` tag): read back with none. */
  partial?: true;
}

const maxLines = 10_000;

/** kubecontainer.MaxContainerTerminationMessageLogLines and ...LogLength. */
const terminationMessageLogLines = 80;
const terminationMessageLogBytes = 2048;

/**
 * readLastStringFromContainerLogs: the last 80 lines, each with its newline, of which a 2,048-byte ring
 * buffer keeps the end: what FallbackToLogsOnError puts in a failed container's termination message.
 */
export function terminationMessageFromLogs(lines: readonly LogLine[]): string {
  const text = Buffer.from(lines.slice(-terminationMessageLogLines).map((l) => formatLogLine(l, false)).join(''), 'utf8');
  return text.subarray(Math.max(0, text.length - terminationMessageLogBytes)).toString('utf8');
}

export class LogBuffer {
  readonly #lines: LogLine[] = [];
  // Made on the first follow: a buffer per container instance lives as long as its pod.
  #followers: Set<(line: LogLine | undefined) => void> | undefined;
  #closed = false;

  write(at: number, text: string, partial = false): void {
    if (this.#closed) return;
    const line: LogLine = partial ? { at, text, partial } : { at, text };
    this.#lines.push(line);
    if (this.#lines.length > maxLines) this.#lines.shift();
    if (this.#followers) for (const f of this.#followers) f(line);
  }

  /** The process exited: followers get `undefined` and are dropped. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const followers = this.#followers;
    this.#followers = undefined;
    if (followers) for (const f of followers) f(undefined);
  }

  get closed(): boolean {
    return this.#closed;
  }

  lines(): readonly LogLine[] {
    return this.#lines;
  }

  follow(fn: (line: LogLine | undefined) => void): () => void {
    if (this.#closed) {
      fn(undefined);
      return () => {};
    }
    const followers = (this.#followers ??= new Set());
    followers.add(fn);
    return () => followers.delete(fn);
  }
}

export interface PodLogOptions {
  tailLines?: number;
  sinceSeconds?: number;
  sinceTime?: number;
  timestamps?: boolean;
  limitBytes?: number;
}

/** RFC3339NanoFixed, as the kubelet prefixes lines with timestamps=true. */
export function formatLogTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

export function formatLogLine(line: LogLine, timestamps: boolean): string {
  const end = line.partial ? '' : '\n';
  return timestamps ? `${formatLogTimestamp(line.at)} ${line.text}${end}` : `${line.text}${end}`;
}

/** The lines a non-following read returns (tail, since), before limitBytes applies. */
export function selectLogLines(lines: readonly LogLine[], options: PodLogOptions, now: number): LogLine[] {
  let out = [...lines];
  const since = options.sinceTime ?? (options.sinceSeconds !== undefined ? now - options.sinceSeconds * 1000 : undefined);
  if (since !== undefined) out = out.filter((l) => l.at >= since);
  if (options.tailLines !== undefined && options.tailLines >= 0) out = options.tailLines === 0 ? [] : out.slice(-options.tailLines);
  return out;
}

/** limitBytes cuts the stream at that many bytes, mid-line if need be. */
export function limitText(text: string, limitBytes: number | undefined): string {
  if (limitBytes === undefined) return text;
  const bytes = Buffer.from(text);
  return bytes.length <= limitBytes ? text : bytes.subarray(0, limitBytes).toString();
}
