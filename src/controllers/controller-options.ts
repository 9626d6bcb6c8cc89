// What a kube-controller-manager controller is built with: its client (identified as that binary),
// the clock, a log, the binary's shared informers and how many keys it syncs at once.
import type { Client, SharedInformers } from '../client/index.ts';
import type { Clock } from '../core/index.ts';

export interface ControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
  /** Concurrent syncs (upstream's --concurrent-<controller>-syncs). */
  workers?: number;
}
