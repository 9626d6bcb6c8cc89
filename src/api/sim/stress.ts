// The load generators kubernetes.io's resource pages run: polinux/stress's `stress` (--cpu, --vm,
// --vm-bytes, --timeout, as in "Assign Memory Resources to Containers and Pods") and vish/stress's
// `-cpus N` ("Assign CPU Resources"): each hog's CPU and the vm workers' memory become the container's
// usage, so a limit below it OOM-kills the container and `kubectl top` shows it. Other programs: undefined.
import type { BehaviourFields } from './behaviour-types.ts';
import { imageRepositoryName } from './image-catalog.ts';
import { basename } from './shell-ast.ts';

/** stress's own memory besides its workers' (its binary and libc). */
const baseBytes = 1 << 20;
/** stress's default --vm-bytes. */
const defaultVmBytes = 256 * 1024 * 1024;

/** The behaviour of `image` running argv when it is one of the stress programs, else undefined. */
export function stressForm(image: string, argv: readonly string[]): BehaviourFields | undefined {
  const [cmd] = argv;
  if (cmd !== undefined && basename(cmd) === 'stress') return stress(argv.slice(1));
  // vish/stress's entrypoint is /stress, given its flags as args.
  if (imageRepositoryName(image) === 'stress' && (cmd === undefined || cmd.startsWith('-'))) return vishStress(argv);
  return undefined;
}

const hogFlags: Readonly<Record<string, 'cpu' | 'io' | 'vm' | 'hdd'>> = { '-c': 'cpu', '--cpu': 'cpu', '-i': 'io', '--io': 'io', '-m': 'vm', '--vm': 'vm', '-d': 'hdd', '--hdd': 'hdd' };

/**
 * stress 1.0.4 (stress.c): hogs of each kind, run until --timeout or for ever. It sets no SIGTERM handler,
 * so as its container's PID 1 it is not stopped before the grace period's SIGKILL.
 */
function stress(args: readonly string[]): BehaviourFields | undefined {
  const hogs = { cpu: 0, io: 0, vm: 0, hdd: 0 };
  let vmBytes = defaultVmBytes;
  let vmHang = false;
  let timeoutS: number | undefined;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const value = args[i + 1];
    const take = (): string | undefined => (i++, value);
    const hog = Object.hasOwn(hogFlags, a) ? hogFlags[a] : undefined;
    if (hog) {
      const n = count(take());
      if (n === undefined) return undefined;
      hogs[hog] = n;
      continue;
    }
    switch (a) {
      case '--vm-bytes': {
        const b = bytes(take());
        if (b === undefined) return undefined;
        vmBytes = b;
        break;
      }
      case '--vm-hang':
        if (count(take()) === undefined) return undefined;
        vmHang = true;
        break;
      case '-t': case '--timeout':
        timeoutS = seconds(take());
        if (timeoutS === undefined) return undefined;
        break;
      case '-q': case '--quiet':
        quiet = true;
        break;
      case '-v': case '--verbose': case '--vm-keep':
        break;
      default:
        return undefined;
    }
  }
  const logs = quiet ? [] : [{ atMs: 0, text: `stress: info: [1] dispatching hogs: ${hogs.cpu} cpu, ${hogs.io} io, ${hogs.vm} vm, ${hogs.hdd} hdd` }];
  if (timeoutS !== undefined && !quiet) logs.push({ atMs: timeoutS * 1000, text: `stress: info: [1] successful run completed in ${timeoutS}s` });
  const memory = baseBytes + hogs.vm * vmBytes;
  // A vm worker that hangs between passes sleeps most of the time; one that does not spins as a cpu hog does.
  const cpuMilli = 1000 * (hogs.cpu + hogs.io + hogs.hdd + (vmHang ? 0 : hogs.vm));
  return { logs, memory: { fromBytes: memory, toBytes: memory, rampMs: 0 }, cpuMilli, onSigterm: 'ignore', ...(timeoutS !== undefined ? { runForMs: timeoutS * 1000, exitCode: 0 } : { runForever: true }) };
}

/** vish/stress (a Go program): -cpus N goroutines spinning; -mem-total is left unsimulated. */
function vishStress(args: readonly string[]): BehaviourFields | undefined {
  let cpus = 0;
  for (let i = 0; i < args.length; i++) {
    const m = /^--?cpus(?:=(.*))?$/.exec(args[i] as string);
    const n = m ? count(m[1] ?? args[++i]) : undefined;
    if (n === undefined) return undefined;
    cpus = n;
  }
  return { cpuMilli: 1000 * cpus, memory: { fromBytes: baseBytes, toBytes: baseBytes, rampMs: 0 }, runForever: true, onSigterm: 'exit' };
}

function count(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** stress's atoll_b: a number with an optional b, k, m or g (powers of 1024). */
function bytes(text: string | undefined): number | undefined {
  const m = /^(\d+)([bBkKmMgG]?)$/.exec(text ?? '');
  if (!m) return undefined;
  const power = { '': 0, b: 0, k: 1, m: 2, g: 3 }[(m[2] ?? '').toLowerCase() as '' | 'b' | 'k' | 'm' | 'g'];
  return Number(m[1]) * 1024 ** power;
}

/** stress's atoll_s: a number with an optional s, m, h, d or y. */
function seconds(text: string | undefined): number | undefined {
  const m = /^(\d+)([smhdy]?)$/.exec(text ?? '');
  if (!m) return undefined;
  return Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86_400, y: 31_536_000 }[(m[2] ?? '') as '' | 's' | 'm' | 'h' | 'd' | 'y'];
}
