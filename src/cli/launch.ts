#!/usr/bin/env -S node --max-semi-space-size=64
// The `drydock` executable (dist/drydock.mjs): runs the CLI bundle (dist/drydock.cjs) through V8's
// code cache. Compiling the 2.4 MB bundle was about a third of `drydock up`'s start; with the cache
// written at build time (scripts/bundle.mjs) V8 skips the parse and the compilation of every
// function the start-up runs. A missing, stale or foreign cache (another Node version, another
// bundle) is refused by V8 itself, and the bundle then compiles as usual.
// The CLI bundle is CommonJS because Node 20 has no code cache for ES modules.
// The hashbang's flag: a cluster's every write allocates short-lived copies, and with V8's default
// 16 MB semi-space a tenth of the server thread went to scavenges (bench/README.md). V8 checks the
// flags against the cache's, so the build writes the cache by running this file as it is run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

type CommonJsWrapper = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/** Compiles the bundle (with the cache when there is one); the cache's buffer is not kept. */
function compile(bundle: string, cacheFile: string): Script {
  // The build leaves the bundle pure ASCII, so latin1 reads the same text without decoding UTF-8.
  // A hashbang is not JavaScript inside the wrapper; blanking it keeps line numbers in stack traces.
  const source = readFileSync(bundle, 'latin1').replace(/^#!.*/, '');
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  return new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
}

const bundle = join(dirname(fileURLToPath(import.meta.url)), 'drydock.cjs');
const cacheFile = `${bundle}.cache`;
const script = compile(bundle, cacheFile);
// The build runs the CLI once with this set and keeps the cache it leaves at exit: by then it
// holds every function `drydock up` compiled, not only the top level.
if (process.env.DRYDOCK_WRITE_CODE_CACHE === '1') {
  process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
}
const run = script.runInThisContext() as CommonJsWrapper;
const module = { exports: {} };
run.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
