// The `drydock` executable's JavaScript path (dist/drydock.mjs, run by `node dist/drydock.mjs` or
// when there is no startup snapshot; scripts/bundle.mjs puts the shell line that picks the snapshot
// above it): runs the CLI bundle (dist/drydock.cjs) through V8's code cache. Compiling the bundle
// was about a third of `drydock up`'s start; with the cache written at build time V8 skips the parse
// and the compilation of every function the start-up runs. A missing, stale or foreign cache
// (another Node version, another bundle, other V8 flags) is refused by V8 itself, and the bundle
// then compiles as usual. The CLI bundle is CommonJS because Node 20 has no code cache for ES modules.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileBundle, runBundle } from './bundle-script.ts';

const bundle = join(dirname(fileURLToPath(import.meta.url)), 'drydock.cjs');
const cacheFile = `${bundle}.cache`;
const script = compileBundle(bundle, cacheFile);
// The build runs the CLI once with this set and keeps the cache it leaves at exit: by then it
// holds every function `drydock up` compiled, not only the top level.
if (process.env.DRYDOCK_WRITE_CODE_CACHE === '1') {
  process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
}
runBundle(script, bundle);
