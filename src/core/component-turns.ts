// How long in-process components may keep the event loop before they wait a turn. In one process the
// API server, its controllers and the kubelets share the thread a client's request needs.
import { monotonicMs } from './clock.ts';

/**
 * How long in-process components may keep the event loop before their next write waits a turn, ms:
 * long enough that ordinary cascades (a cluster's start, a controller's burst of 500 creates) run as
 * they did, short enough that a client waits a fraction of a second, not forever.
 */
export const componentTurnBudgetMs = 200;

let componentTurnStart: number | undefined;
const endComponentTurn = (): void => {
  componentTurnStart = undefined;
};

/**
 * For the in-process client's writes and a kubelet's long passes: a promise that resolves on the next
 * turn once the components have held this one for longer than the budget, else undefined. A controller
 * with endless work (a Deployment scaled to 2,147,483,647 replicas) runs its writes as one chain of
 * microtasks: without this, the loop never reached its poll phase again, and kubectl could not even
 * finish a TLS handshake to scale it back down, where upstream's goroutines leave the API server answering.
 */
export function componentTurnOver(): Promise<void> | undefined {
  const now = monotonicMs();
  if (componentTurnStart === undefined) {
    componentTurnStart = now;
    setImmediate(endComponentTurn);
    return undefined;
  }
  if (now - componentTurnStart < componentTurnBudgetMs) return undefined;
  return nextTurn();
}

/** Resolves on the event loop's next turn, after the I/O waiting now (setImmediate). */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
