// Sizes and durations from the environment (bench/README.md's list): a smaller run, such as
// bench/run.test.ts's, is one variable away, and a mistyped value stops the run instead of
// measuring NaN nodes.

/** `name`'s number, or `fallback` when it is unset or empty. */
export function env(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name}=${text}: want a number >= 0`);
  return value;
}

export interface Shape {
  nodes: number;
  pods: number;
}

/** One `nodes/pods` pair, as BENCH_POD_MEMORY lists them. */
export function parseShape(name: string, text: string): Shape {
  const [nodes, pods, ...rest] = text.split('/').map((part) => (/^\d+$/.test(part.trim()) ? Number(part) : NaN));
  if (nodes === undefined || pods === undefined || Number.isNaN(nodes) || Number.isNaN(pods) || nodes < 1 || rest.length > 0) {
    throw new Error(`${name}=${text}: want nodes/pods, e.g. 500/5000, at least 1 node`);
  }
  return { nodes, pods };
}

/** `name`'s `nodes/pods`, or the default shape when it is unset or empty. */
export function envShape(name: string, fallback: Shape): Shape {
  const text = process.env[name];
  return text === undefined || text === '' ? fallback : parseShape(name, text);
}

/** 5000 -> "5,000", as the tables' titles spell counts. */
export const count = (n: number): string => n.toLocaleString('en-US');
