// The `drydock` executable can start from a V8 startup snapshot whose modules were loaded at build
// time (src/cli/snapshot-builder.ts). A module's settings read from the process are read again when
// a process starts from it; work a module does once for every start can be done in the build instead.
import { startupSnapshot } from 'node:v8';

/** Runs `read` now and, in a snapshot being built, again in every process started from it. */
export function readAtProcessStart(read: () => void): void {
  read();
  if (startupSnapshot.isBuildingSnapshot()) startupSnapshot.addDeserializeCallback(read);
}

/**
 * Runs `prepare` while a snapshot is built, so its results (parsed tables, compiled expressions)
 * are in every process started from it; otherwise leaves the work to first use.
 */
export function prepareInSnapshot(prepare: () => void): void {
  if (startupSnapshot.isBuildingSnapshot()) prepare();
}
