// Placeholder while the controller is being written.
import type { Clock } from '../../core/index.ts';
import type { Client } from '../../client/index.ts';

export interface DeploymentControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
}

export class DeploymentController {
  constructor(_options: DeploymentControllerOptions) {}
  start(): void {}
  stop(): void {}
}
