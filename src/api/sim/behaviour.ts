// The behaviour model of simulated containers (DESIGN.md): the `sim.drydock.dev/<container>`
// annotation, then simple command forms, then the image catalog, then the default. Pure.
import { parse as parseYaml } from 'yaml';
import { FieldPath, invalidValue, maxNestingDepth, yamlTooDeep } from '../../core/index.ts';
import type { DeepReadonly, FieldError } from '../../core/index.ts';
import type { Container, Pod } from '../core/v1/pod/types.ts';
import type { BehaviourFields, ContainerKind, SigtermStep, SimBehaviour, TimedLine } from './behaviour-types.ts';
import { commandFormBehaviour, isInteractiveShell } from './command-forms.ts';
import { perlBpiForm } from './perl-bpi.ts';
import { stressForm } from './stress.ts';
import { catalogBehaviour, defaultImageCatalog, isShellImage } from './image-catalog.ts';
import type { ImageCatalogEntry } from './image-catalog.ts';
import { parseDurationMs, parseMemoryModel, parseMilliCpu } from './values.ts';

export type * from './behaviour-types.ts';
export type { ImageCatalogEntry } from './image-catalog.ts';
export type { MemoryModel } from './values.ts';
export { defaultImageCatalog, imageRepositoryName } from './image-catalog.ts';
export { memoryAt, memoryExceedsAt, parseDurationMs } from './values.ts';
export { deterministicUuid, simulatedGpuUuid } from './gpu-identity.ts';
export { commandFormBehaviour, isInteractiveShell, runCommandForm } from './command-forms.ts';
export { ShellRun } from './shell-run.ts';
export { ImpureScript } from './shell-context.ts';
export type { CommandHook, ReadableFile, ShellFiles, WritableFile } from './shell-context.ts';
export { containerCommands, scriptCommands } from './shell-allowed.ts';
export { OutsideSubset, usesCommand } from './shell-ast.ts';
export type { List as ShellProgram } from './shell-ast.ts';
export { argvCommand, parseScript } from './shell-syntax.ts';
export { test as shellTest, testsFiles } from './shell-commands.ts';
export type { PathStat } from './shell-commands.ts';

export const simAnnotationPrefix = 'sim.drydock.dev/';
/** A regular init container's default run time ("a short delay"). */
export const defaultInitRunMs = 1000;

const fieldNames = ['startupDelay', 'ready', 'runFor', 'exitCode', 'onSigterm', 'stopDelay', 'responseTime', 'memory', 'cpu', 'logs', 'logEvery', 'stopLogs', 'pull', 'disk', 'diskPath'] as const;
type FieldName = (typeof fieldNames)[number];

type Parsed = { ok: true; fields: BehaviourFields } | { ok: false; detail: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringList(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: string[] = [];
  for (const item of v) {
    if (typeof item === 'string') out.push(item);
    else if (typeof item === 'number' || typeof item === 'boolean') out.push(String(item));
    else return undefined;
  }
  return out;
}

// Returns an error detail, or applies the field's value to `out`.
function parseField(name: FieldName, v: unknown, out: BehaviourFields): string | undefined {
  const duration = (): number | undefined => parseDurationMs(v);
  switch (name) {
    case 'startupDelay':
    case 'stopDelay':
    case 'responseTime':
    case 'logEvery': {
      const ms = duration();
      if (ms === undefined) return `${name}: not a duration`;
      if (name === 'startupDelay') out.startupDelayMs = ms;
      else if (name === 'stopDelay') out.stopDelayMs = ms;
      else if (name === 'responseTime') out.responseTimeMs = ms;
      else if (ms <= 0) return 'logEvery: must be greater than 0s';
      else out.logEveryMs = ms;
      return undefined;
    }
    case 'ready':
      if (v === 'never') out.readyNever = true;
      else if (duration() === undefined) return 'ready: not a duration or "never"';
      else out.readyAfterMs = duration() as number;
      return undefined;
    case 'runFor':
      if (v === 'forever') out.runForever = true;
      else if (duration() === undefined) return 'runFor: not a duration';
      else out.runForMs = duration() as number;
      return undefined;
    case 'exitCode':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 255) return 'exitCode: must be an integer from 0 to 255';
      out.exitCode = v;
      return undefined;
    case 'onSigterm':
      if (v !== 'exit' && v !== 'ignore') return 'onSigterm: must be "exit" or "ignore"';
      out.onSigterm = v;
      return undefined;
    case 'memory': {
      const model = parseMemoryModel(v);
      if (!model) return 'memory: not a quantity or a ramp like "200Mi->900Mi/60s"';
      out.memory = model;
      return undefined;
    }
    case 'cpu': {
      const milli = parseMilliCpu(v);
      if (milli === undefined) return 'cpu: not a quantity';
      out.cpuMilli = milli;
      return undefined;
    }
    case 'logs': {
      const lines = typeof v === 'string' ? [v] : stringList(v);
      if (!lines) return 'logs: must be a list of strings';
      out.logs = lines.map((text): TimedLine => ({ atMs: 0, text }));
      return undefined;
    }
    case 'disk': {
      const model = parseMemoryModel(v);
      if (!model) return 'disk: not a quantity or a ramp like "0->20Gi/60s"';
      out.disk = model;
      return undefined;
    }
    case 'diskPath':
      if (typeof v !== 'string' || !v.startsWith('/')) return 'diskPath: must be an absolute path';
      out.diskPath = v;
      return undefined;
    case 'pull':
      if (v === 'notFound') out.pullNotFound = true;
      else if (v === 'unauthorized') out.pullUnauthorized = true;
      else if (duration() === undefined) return 'pull: not a duration, "notFound" or "unauthorized"';
      else out.pullMs = duration() as number;
      return undefined;
    case 'stopLogs': {
      const lines = typeof v === 'string' ? [v] : stringList(v);
      if (!lines) return 'stopLogs: must be a list of strings';
      out.stopLogs = lines;
      return undefined;
    }
    default: {
      const never: never = name;
      return `${String(never)}: unknown field`;
    }
  }
}

/** Parses one annotation value (YAML, of which JSON is a subset). */
export function parseBehaviourAnnotation(text: string): Parsed {
  let raw: unknown;
  // Read by the API server's admission and by every kubelet: the yaml library's recursion must not meet
  // a text nested past what it survives (core's nesting-depth.ts).
  const deepLine = yamlTooDeep(text);
  if (deepLine !== undefined) return { ok: false, detail: `not valid YAML or JSON: exceeded max depth of ${maxNestingDepth} at line ${deepLine}` };
  try {
    raw = parseYaml(text);
  } catch (error) {
    const first = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return { ok: false, detail: `not valid YAML or JSON: ${first}` };
  }
  if (raw === null || raw === undefined) return { ok: true, fields: {} };
  if (!isRecord(raw)) return { ok: false, detail: `must be a map of behaviour fields (${fieldNames.join(', ')})` };
  const fields: BehaviourFields = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!(fieldNames as readonly string[]).includes(key)) return { ok: false, detail: `${key}: unknown field; known fields: ${fieldNames.join(', ')}` };
    const detail = parseField(key as FieldName, value, fields);
    if (detail) return { ok: false, detail };
  }
  return { ok: true, fields };
}

function containerNames(pod: DeepReadonly<Pod>): Set<string> {
  const spec = pod.spec;
  return new Set([...(spec?.initContainers ?? []), ...(spec?.containers ?? []), ...(spec?.ephemeralContainers ?? [])].map((c) => c.name));
}

/** A 422 cause per malformed `sim.drydock.dev/<container>` annotation (or one naming no container). */
export function validateSimBehaviourAnnotations(pod: DeepReadonly<Pod>): FieldError[] {
  const errs: FieldError[] = [];
  const annotations = pod.metadata?.annotations ?? {};
  const names = containerNames(pod);
  const path = FieldPath.root('metadata').child('annotations');
  for (const [key, value] of Object.entries(annotations)) {
    if (!key.startsWith(simAnnotationPrefix)) continue;
    const container = key.slice(simAnnotationPrefix.length);
    if (!names.has(container)) {
      errs.push(invalidValue(path.key(key), value, `no container named "${container}" in this pod`));
      continue;
    }
    const parsed = parseBehaviourAnnotation(value);
    if (!parsed.ok) errs.push(invalidValue(path.key(key), value, parsed.detail));
  }
  return errs;
}

/**
 * Whether the container's process is a shell reading the standard input its spec keeps open
 * (`stdin: true`, as `kubectl run -i` makes): its command (`sh`, `bash` with no -c) or a shell image's own.
 */
export function readsShellInput(container: DeepReadonly<Container>, catalog: readonly ImageCatalogEntry[] = defaultImageCatalog): boolean {
  const argv = [...(container.command ?? []), ...(container.args ?? [])];
  return container.stdin === true && (argv.length > 0 ? isInteractiveShell(argv) : isShellImage(catalog, container.image ?? ''));
}

/**
 * Whether the container's process is PID 1 of a PID namespace of its own. With the pod's
 * shareProcessNamespace or hostPID it is not, nor is an ephemeral container that joins its target's.
 */
function isPidNamespaceInit(pod: DeepReadonly<Pod>, container: DeepReadonly<Container>, kind: ContainerKind): boolean {
  return !pod.spec?.shareProcessNamespace && !pod.spec?.hostPID && !(kind === 'ephemeral' && 'targetContainerName' in container && container.targetContainerName);
}

function baseBehaviour(pod: DeepReadonly<Pod>, container: DeepReadonly<Container>, kind: ContainerKind, catalog: readonly ImageCatalogEntry[]): { source: SimBehaviour['source']; fields: BehaviourFields } {
  const argv = [...(container.command ?? []), ...(container.args ?? [])];
  // A shell waits on the standard input it was given; without one it reads end-of-file and exits 0.
  if (readsShellInput(container, catalog)) return { source: argv.length > 0 ? 'command' : 'image', fields: {} };
  if (isInteractiveShell(argv)) return { source: 'command', fields: { runForMs: 0, exitCode: 0 } };
  const fromCommand = argv.length > 0 ? (commandFormBehaviour(argv, isPidNamespaceInit(pod, container, kind)) ?? perlBpiForm(argv) ?? stressForm(container.image ?? '', argv)) : undefined;
  if (fromCommand) return { source: 'command', fields: fromCommand };
  const fromStress = argv.length === 0 ? stressForm(container.image ?? '', argv) : undefined;
  if (fromStress) return { source: 'image', fields: fromStress };
  const fromImage = catalogBehaviour(catalog, container.image ?? '', argv.length > 0);
  if (fromImage) return { source: 'image', fields: fromImage };
  return { source: 'default', fields: kind === 'init' ? { runForMs: defaultInitRunMs, exitCode: 0 } : {} };
}

function apply(into: SimBehaviour, f: BehaviourFields): void {
  if (f.startupDelayMs !== undefined) into.startupDelayMs = f.startupDelayMs;
  if (f.readyNever) delete into.readyAfterMs;
  else if (f.readyAfterMs !== undefined) into.readyAfterMs = f.readyAfterMs;
  if (f.runForever) delete into.runForMs;
  else if (f.runForMs !== undefined) into.runForMs = f.runForMs;
  if (f.exitCode !== undefined) into.exitCode = f.exitCode;
  // The annotation's onSigterm gives the process a handler of its own, so a script's trap no longer decides.
  if (f.onSigterm !== undefined) {
    into.onSigterm = f.onSigterm;
    delete into.sigtermSteps;
  }
  if (f.sigtermSteps !== undefined) into.sigtermSteps = f.sigtermSteps;
  if (f.script !== undefined) into.script = f.script;
  if (f.stopDelayMs !== undefined) into.stopDelayMs = f.stopDelayMs;
  if (f.responseTimeMs !== undefined) into.responseTimeMs = f.responseTimeMs;
  if (f.memory !== undefined) into.memory = f.memory;
  if (f.cpuMilli !== undefined) into.cpuMilli = f.cpuMilli;
  if (f.logs !== undefined) into.logs = f.logs;
  if (f.logEveryMs !== undefined) into.logEveryMs = f.logEveryMs;
  if (f.stopLogs !== undefined) into.stopLogs = f.stopLogs;
  if (f.pullMs !== undefined) into.pullMs = f.pullMs;
  if (f.pullNotFound !== undefined) into.pullNotFound = f.pullNotFound;
  if (f.pullUnauthorized !== undefined) into.pullUnauthorized = f.pullUnauthorized;
  if (f.disk !== undefined) into.disk = f.disk;
  if (f.diskPath !== undefined) into.diskPath = f.diskPath;
}

/**
 * What `container` does. The command form, catalog entry or default gives the base; the
 * annotation's fields then override field by field (so `memory: 900Mi` on nginx keeps nginx
 * running forever). A malformed annotation (validation rejects it at create) is ignored.
 */
export function resolveBehaviour(
  pod: DeepReadonly<Pod>,
  container: DeepReadonly<Container>,
  kind: ContainerKind,
  catalog: readonly ImageCatalogEntry[] = defaultImageCatalog,
): SimBehaviour {
  const base = baseBehaviour(pod, container, kind, catalog);
  const out: SimBehaviour = { source: base.source, startupDelayMs: 0, readyAfterMs: 0, exitCode: 0, onSigterm: 'exit', stopDelayMs: 0, responseTimeMs: 0, logs: [], stopLogs: [], pullMs: 0, pullNotFound: false, pullUnauthorized: false };
  apply(out, base.fields);
  const text = pod.metadata?.annotations?.[simAnnotationPrefix + container.name];
  if (text !== undefined) {
    const parsed = parseBehaviourAnnotation(text);
    if (parsed.ok) {
      apply(out, parsed.fields);
      // Fields that say how the process runs, logs or stops take a script run on the clock's place: the
      // annotation then describes the process as it does any other (and as it did such scripts before they ran).
      const f = parsed.fields;
      if (f.readyNever || f.readyAfterMs !== undefined) out.readyDecidesProbes = true;
      if (f.runForMs !== undefined || f.runForever || f.exitCode !== undefined || f.onSigterm !== undefined || f.stopDelayMs !== undefined || f.stopLogs !== undefined || f.logs !== undefined) delete out.script;
      // A stopDelay or stopLogs describes a handler for SIGTERM, so the command no longer ignores it as PID 1.
      const { onSigterm, stopDelayMs, stopLogs } = parsed.fields;
      if (base.source === 'command' && onSigterm === undefined && (stopDelayMs !== undefined || stopLogs !== undefined)) {
        out.onSigterm = 'exit';
        delete out.sigtermSteps;
      }
      if (parsed.fields.runForMs !== undefined || parsed.fields.runForever || parsed.fields.exitCode !== undefined) out.source = 'annotation';
    }
  }
  return out;
}

/** How a process answers SIGTERM: it exits with `exitCode` `afterMs` later, having written `stopLogs` at once. */
export interface SigtermExit {
  afterMs: number;
  exitCode: number;
  stopLogs: readonly string[];
}

/** What the process does on SIGTERM `elapsedMs` after it came up; undefined: it carries on. */
export function sigtermExit(b: SimBehaviour, elapsedMs: number): SigtermExit | undefined {
  if (b.sigtermSteps) {
    let step: SigtermStep | undefined;
    for (const s of b.sigtermSteps) if (s.fromMs <= elapsedMs) step = s;
    const exit = step?.exit;
    if (!exit || exit.atMs === null) return undefined;
    return { afterMs: Math.max(0, (exit.atMs ?? elapsedMs) - elapsedMs), exitCode: exit.code, stopLogs: [] };
  }
  return b.onSigterm === 'ignore' ? undefined : { afterMs: b.stopDelayMs, exitCode: 0, stopLogs: b.stopLogs };
}

/**
 * Shell-style `$VAR` / `${VAR}` expansion of the behaviour's log lines against the container's
 * environment (its literal `env` values plus what the kubelet injects, e.g. NVIDIA_VISIBLE_DEVICES
 * from DRA), so `logs: ["GPUs: $NVIDIA_VISIBLE_DEVICES"]` prints what `echo` would. An unset
 * variable expands to nothing, as in sh; `$$` is a literal `$`. An `nvidia-smi -L` of the command
 * becomes `gpuList`, the lines the kubelet built from the devices the container was given (undefined
 * when the kubelet cannot tell: device-plugin GPUs are counted, not assigned).
 */
export function expandBehaviourEnv(behaviour: SimBehaviour, env: Readonly<Record<string, string>>, gpuList: readonly string[] | undefined): SimBehaviour {
  const expand = (text: string): string =>
    text.includes('$') ? text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, braced?: string, bare?: string) => (m === '$$' ? '$' : (env[braced ?? bare ?? ''] ?? ''))) : text;
  // nvidia-smi's own words when the container sees no GPU; nothing when which GPUs it sees is not known.
  const listing = gpuList === undefined ? [] : gpuList.length > 0 ? gpuList : ['No devices were found'];
  const logs = behaviour.logs.flatMap((l) => (l.gpuList ? listing.map((text) => ({ atMs: l.atMs, text })) : [{ ...l, text: expand(l.text) }]));
  const script = behaviour.script && { ...behaviour.script, env, gpuList };
  return { ...behaviour, logs, stopLogs: behaviour.stopLogs.map(expand), ...(script ? { script } : {}) };
}
