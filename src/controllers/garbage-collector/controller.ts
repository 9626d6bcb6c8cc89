// Placeholder while the controller is being written.
import type { Clock } from '../../core/index.ts';
import type { Client } from '../../client/index.ts';

export interface GarbageCollectorOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
}

export class GarbageCollector {
  constructor(_options: GarbageCollectorOptions) {}
  start(): void {}
  stop(): void {}
}
