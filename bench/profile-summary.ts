// Prints the hottest functions of a V8 .cpuprofile (as `node --cpu-prof` writes): self time and
// total (inclusive) time per function, and self time per source file.
// Run: node dist/bench/profile-summary.js bench/profiles/<file>.cpuprofile [top=30]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function summarize(path: string, top = 30): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const label = (n: ProfileNode): string => {
    const file = n.callFrame.url.replace(/^file:\/\//, '').replace(/^.*\/(dist|node_modules)\//, '$1/');
    return `${n.callFrame.functionName || '(anonymous)'} ${file ? `${file}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const files = new Map<string, number>();
  let all = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    all += us;
    self.set(label(node), (self.get(label(node)) ?? 0) + us);
    const file = node.callFrame.url ? node.callFrame.url.replace(/^.*\/(dist|node_modules)\//, '$1/') : `(${node.callFrame.functionName || 'native'})`;
    files.set(file, (files.get(file) ?? 0) + us);
    // Inclusive time: count each distinct function once per sample stack (recursion).
    const onStack = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (n) onStack.add(label(n));
    }
    for (const l of onStack) total.set(l, (total.get(l) ?? 0) + us);
  }
  const pct = (us: number): string => `${((100 * us) / all).toFixed(1).padStart(5)}%`;
  const rows = (m: Map<string, number>): string[] => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, us]) => `${pct(us)} ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
  return [
    `${path}: ${(all / 1e6).toFixed(2)} s sampled`,
    '', 'self time (where the CPU is):', ...rows(self),
    '', 'total time (including callees):', ...rows(total).filter((l) => !/\(root\)|\(program\)/.test(l)),
    '', 'self time per file:', ...rows(files).slice(0, 15),
  ].join('\n');
}

if (process.argv[1] && /profile-summary\.(js|ts)$/.test(process.argv[1])) {
  const path = process.argv[2];
  if (!path) {
    process.stderr.write('usage: profile-summary <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  const top = Number(process.argv[3]);
  process.stdout.write(`${summarize(path, Number.isInteger(top) && top > 0 ? top : 30)}\n`);
}
