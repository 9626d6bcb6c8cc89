// kubernetes.io's first Job, `perl -Mbignum=bpi -wle 'print bpi(2000)'`: π to N significant digits as
// Math::BigFloat's bpi gives it (rounded at the last digit), printed at once, then exit 0. Other perl
// programs are not simulated.
import { boundedMemo } from '../../core/index.ts';
import type { BehaviourFields } from './behaviour-types.ts';
import { basename } from './shell-ast.ts';

/** More digits take long enough to compute (~50 ms for 10,000) that they are left unsimulated. */
const maxDigits = 10_000;
/** Each of a Job's pods resolves its behaviour at its pull and again at its start: π is worked out once. */
const piText = boundedMemo(8, (digits: number) => bpi(digits));

/** The behaviour of argv when it is that program, else undefined. */
export function perlBpiForm(argv: readonly string[]): BehaviourFields | undefined {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || basename(cmd) !== 'perl' || !rest.includes('-Mbignum=bpi')) return undefined;
  let program: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (a === '-Mbignum=bpi') continue;
    // A switch cluster: -w warns, -l ends each print with a newline, -e takes the program next.
    if (!/^-[wl]*e?$/.test(a) || a === '-') return undefined;
    if (a.endsWith('e')) program = rest[++i];
  }
  const digits = Number(/^\s*print\s+bpi\(\s*(\d+)\s*\)\s*;?\s*$/.exec(program ?? '')?.[1]);
  if (!(digits >= 1 && digits <= maxDigits)) return undefined;
  return { logs: [{ atMs: 0, text: piText(digits) }], runForMs: 0, exitCode: 0 };
}

/** π rounded to `digits` significant digits, in perl's notation (`3.14`; bpi(1) is `3`). */
export function bpi(digits: number): string {
  const guard = 10;
  const unity = 10n ** BigInt(digits - 1 + guard);
  // Machin: π = 16·atan(1/5) − 4·atan(1/239).
  const scaled = 16n * arctanInverse(5n, unity) - 4n * arctanInverse(239n, unity);
  const rounded = (scaled + 5n * 10n ** BigInt(guard - 1)) / 10n ** BigInt(guard);
  const text = rounded.toString();
  return text.length > 1 ? `${text[0]}.${text.slice(1)}` : text;
}

function arctanInverse(x: bigint, unity: bigint): bigint {
  const square = x * x;
  let power = unity / x;
  let sum = power;
  for (let n = 3n, sign = -1n; power !== 0n; n += 2n, sign = -sign) {
    power /= square;
    sum += (sign * power) / n;
  }
  return sum;
}
