// The image catalog: what well-known images do when nothing more specific says. Patterns match the
// image's repository name without registry, path, tag or digest (`docker.io/library/nginx:1.27` -> `nginx`).
import type { BehaviourFields } from './behaviour-types.ts';

export interface ImageCatalogEntry {
  /** Glob over the repository's last path segment; `*` matches any run of characters. */
  pattern: string;
  /** Applies only when the container sets neither command nor args (the image's own entrypoint runs). */
  whenNoCommand?: boolean;
  /** The image's own command is a shell reading standard input: with `stdin: true` it waits there. */
  shell?: boolean;
  behaviour: BehaviourFields;
}

const server = (lines: string[]): BehaviourFields => ({ runForever: true, readyAfterMs: 0, logs: lines.map((text) => ({ atMs: 0, text })) });
const shipper = (lines: string[], stopLines: string[]): BehaviourFields => ({
  ...server(lines),
  stopDelayMs: 1000,
  stopLogs: stopLines,
});
const quickExit: BehaviourFields = { runForMs: 0, exitCode: 0 };

export const defaultImageCatalog: readonly ImageCatalogEntry[] = [
  {
    pattern: 'nginx*',
    behaviour: server([
      '/docker-entrypoint.sh: Configuration complete; ready for start up',
      'nginx: [notice] start worker processes',
    ]),
  },
  {
    pattern: 'fluent-bit',
    behaviour: shipper(
      ['Fluent Bit v3.2.0', '[engine] started (pid=1)', '[sp] stream processor started'],
      ['[engine] caught signal (SIGTERM)', '[engine] service has stopped (0 pending tasks)'],
    ),
  },
  { pattern: 'fluentd*', behaviour: shipper(['fluentd worker is now running worker=0'], ['fluentd worker is now stopping worker=0']) },
  { pattern: 'vector', behaviour: shipper(['Vector has started.'], ['Vector has stopped.']) },
  { pattern: 'promtail', behaviour: shipper(['Starting Promtail'], ['Stopping Promtail']) },
  { pattern: 'opentelemetry-collector*', behaviour: shipper(['Everything is ready. Begin running and processing data.'], ['Shutdown complete.']) },
  { pattern: 'otel*collector*', behaviour: shipper(['Everything is ready. Begin running and processing data.'], ['Shutdown complete.']) },
  { pattern: 'envoy*', behaviour: server(['starting main dispatch loop']) },
  { pattern: 'httpd', behaviour: server(['AH00094: Command line: \'httpd -D FOREGROUND\'']) },
  { pattern: 'redis*', behaviour: server(['* Ready to accept connections tcp']) },
  { pattern: 'postgres*', behaviour: server(['database system is ready to accept connections']) },
  { pattern: 'mysql', behaviour: server(['ready for connections.']) },
  { pattern: 'memcached', behaviour: server([]) },
  { pattern: 'pause', behaviour: server([]) },
  { pattern: 'vllm*', behaviour: { ...server(['INFO:     Application startup complete.']), readyAfterMs: 30_000 } },
  { pattern: 'tritonserver', behaviour: { ...server(['Started HTTPService at 0.0.0.0:8000']), readyAfterMs: 10_000 } },
  // Shell images with no command run `sh`, which reads standard input: without one it exits at once.
  { pattern: 'busybox', whenNoCommand: true, shell: true, behaviour: quickExit },
  { pattern: 'alpine', whenNoCommand: true, shell: true, behaviour: quickExit },
  { pattern: 'ubuntu', whenNoCommand: true, shell: true, behaviour: quickExit },
  { pattern: 'debian', whenNoCommand: true, shell: true, behaviour: quickExit },
  { pattern: 'python', whenNoCommand: true, behaviour: quickExit },
];

/** The repository name of an image reference: no registry, path, tag or digest. */
export function imageRepositoryName(image: string): string {
  const noDigest = image.split('@')[0] ?? '';
  const last = noDigest.slice(noDigest.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  return colon >= 0 ? last.slice(0, colon) : last;
}

// Every container start looks its image up: each pattern is compiled once.
const compiledPatterns = new Map<string, RegExp>();

function globMatch(pattern: string, text: string): boolean {
  let re = compiledPatterns.get(pattern);
  if (re === undefined) {
    re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    compiledPatterns.set(pattern, re);
  }
  return re.test(text);
}

/** Whether a container with no command runs its image's shell (busybox, alpine, ubuntu, debian). */
export function isShellImage(catalog: readonly ImageCatalogEntry[], image: string): boolean {
  const name = imageRepositoryName(image);
  return catalog.find((entry) => globMatch(entry.pattern, name))?.shell === true;
}

export function catalogBehaviour(catalog: readonly ImageCatalogEntry[], image: string, hasCommand: boolean): BehaviourFields | undefined {
  const name = imageRepositoryName(image);
  for (const entry of catalog) {
    if (entry.whenNoCommand && hasCommand) continue;
    if (globMatch(entry.pattern, name)) return entry.behaviour;
  }
  return undefined;
}
