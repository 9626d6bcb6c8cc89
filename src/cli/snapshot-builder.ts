// Builds the executable's startup snapshot (dist/drydock.blob): scripts/bundle.mjs runs
// `node <flags> --snapshot-blob dist/drydock.blob --build-snapshot dist/drydock-snapshot.cjs
// dist/drydock.cjs`. The bundle is compiled through its code cache, so the functions `drydock up`
// runs keep their bytecode in the snapshot, and its modules are loaded: a process started from the
// snapshot skips reading, compiling and initializing 3 MB of JavaScript, and main.ts's deserialized
// main function runs the command.
import { resolve } from 'node:path';
import { compileBundle, runBundle } from './bundle-script.ts';

const bundle = process.argv[2] ? resolve(process.argv[2]) : undefined;
if (!bundle) throw new Error('usage: node --snapshot-blob BLOB --build-snapshot drydock-snapshot.cjs BUNDLE');
const script = compileBundle(bundle, `${bundle}.cache`);
if (script.cachedDataRejected !== false) throw new Error(`${bundle}.cache was not accepted: the snapshot would start without compiled code`);
runBundle(script, bundle);
