// The layer rule of DESIGN.md, checked on every import in src/: allowed edges only, other
// layers only through their index.ts, no cycles, and no ambient time or randomness outside
// core/clock.ts (with core/timer-queue.ts, its scaled clock's timers) and core/random.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../src').replace(/dist[\\/]src$/, 'src');
const srcRoot = statSync(root, { throwIfNoEntry: false }) ? root : resolve(import.meta.dirname, '../src');

const allowed: Record<string, readonly string[]> = {
  core: [],
  api: ['core'],
  storage: ['core', 'api'],
  client: ['core', 'api'],
  apiserver: ['core', 'api', 'storage', 'client'],
  scheduler: ['core', 'api', 'client'],
  dra: ['core', 'api', 'client'],
  kubelet: ['core', 'api', 'client'],
  controllers: ['core', 'api', 'client'],
  lint: ['core', 'api'],
  cluster: ['core', 'api', 'storage', 'client', 'apiserver', 'scheduler', 'dra', 'kubelet', 'controllers', 'lint'],
  cli: ['core', 'api', 'client', 'cluster', 'lint', 'apiserver'],
  dashboard: ['core', 'api', 'client', 'cluster'],
};

const ambient = [/\bDate\.now\(/, /new Date\(\)/, /\bsetTimeout\(/, /\bsetInterval\(/, /performance\.now\(/, /Math\.random\(/, /randomUUID\(/];
const ambientAllowed = new Set(['core/clock.ts', 'core/timer-queue.ts', 'core/random.ts', 'cli/main.ts', 'cli/up.ts']);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function imports(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^'";]*?from\s+'([^']+)'/g)) if (m[1]) found.push(m[1]);
  return found.filter((s) => s.startsWith('.'));
}

const files = sourceFiles(srcRoot).map((f) => relative(srcRoot, f).replaceAll('\\', '/'));
const layerOf = (file: string): string => file.split('/')[0] ?? '';
const isTest = (file: string): boolean => file.endsWith('.test.ts') || file.endsWith('.conformance.ts') || file.endsWith('.test-helpers.ts');

test('every import follows the layer table and enters other layers through index.ts', () => {
  const violations: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(srcRoot, file), 'utf8');
    for (const spec of imports(text)) {
      const target = relative(srcRoot, resolve(dirname(join(srcRoot, file)), spec)).replaceAll('\\', '/');
      const from = layerOf(file);
      const to = layerOf(target);
      // Test code may share helpers kept outside src/ (test/).
      if (from === to || (isTest(file) && target.startsWith('../'))) continue;
      if (!(allowed[from] ?? []).includes(to) && !(isTest(file) && to !== from)) violations.push(`${file} imports ${target} (${from} -> ${to})`);
      if (target !== `${to}/index.ts`) violations.push(`${file} imports ${target} instead of ${to}/index.ts`);
    }
  }
  assert.deepEqual(violations, []);
});

test('there are no import cycles between files', () => {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    if (isTest(file)) continue;
    const text = readFileSync(join(srcRoot, file), 'utf8');
    const typeOnly = new Set([...text.matchAll(/import type [^;]*?from\s+'([^']+)'/g)].map((m) => m[1]));
    const deps = imports(text).filter((s) => !typeOnly.has(s)).map((s) => relative(srcRoot, resolve(dirname(join(srcRoot, file)), s)).replaceAll('\\', '/'));
    graph.set(file, deps);
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[] = [];
  const visit = (file: string, path: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') {
      cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'visiting');
    for (const dep of graph.get(file) ?? []) visit(dep, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  assert.deepEqual(cycles, []);
});

test('time and randomness come only from core/clock.ts and core/random.ts', () => {
  const violations: string[] = [];
  for (const file of files) {
    if (ambientAllowed.has(file) || isTest(file)) continue;
    const lines = readFileSync(join(srcRoot, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line.trimStart().startsWith('//')) return;
      for (const pattern of ambient) if (pattern.test(line)) violations.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(violations, []);
});
