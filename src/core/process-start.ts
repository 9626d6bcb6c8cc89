// Settings a module reads from the process (its environment) when it loads. The `drydock`
// executable can start from a V8 startup snapshot whose modules were loaded at build time
// (src/cli/snapshot-builder.ts); such a setting is read again when a process starts from it.
import { startupSnapshot } from 'node:v8';

/** Runs `read` now and, in a snapshot being built, again in every process started from it. */
export function readAtProcessStart(read: () => void): void {
  read();
  if (startupSnapshot.isBuildingSnapshot()) startupSnapshot.addDeserializeCallback(read);
}
