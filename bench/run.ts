// `npm run bench [-- name]`: runs the benchmarks and prints their tables. The registry is this map.
import { runApiBenchmarks } from './api.ts';
import { runResizeBenchmarks } from './resize.ts';

const benchmarks: Record<string, () => Promise<void>> = {
  api: runApiBenchmarks,
  resize: runResizeBenchmarks,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !benchmarks[name]);
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; choose from: ${Object.keys(benchmarks).join(', ')}\n`);
  process.exit(2);
}
process.stdout.write(`machine: ${(await import('node:os')).cpus().length} cores, ${Math.round((await import('node:os')).totalmem() / 2 ** 30)} GiB, node ${process.version}\n`);
for (const name of wanted.length > 0 ? wanted : Object.keys(benchmarks)) {
  process.stdout.write(`\n== ${name}\n`);
  await benchmarks[name]?.();
}
process.exit(0);
