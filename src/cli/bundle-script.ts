// Loading the CLI bundle (dist/drydock.cjs) through V8's code cache, shared by the executable's
// JavaScript path (launch.ts) and the startup snapshot's builder (snapshot-builder.ts).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

type CommonJsWrapper = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/** Compiles the bundle (with the cache when there is one); the cache's buffer is not kept. */
export function compileBundle(bundle: string, cacheFile: string): Script {
  // The build leaves the bundle pure ASCII, so latin1 reads the same text without decoding UTF-8.
  // A hashbang is not JavaScript inside the wrapper; blanking it keeps line numbers in stack traces.
  const source = readFileSync(bundle, 'latin1').replace(/^#!.*/, '');
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  return new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
}

/** Runs the compiled bundle as the CommonJS module at `bundle`. */
export function runBundle(script: Script, bundle: string): void {
  const run = script.runInThisContext() as CommonJsWrapper;
  const module = { exports: {} };
  run.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}
