// Starts HTTP requests in event-loop turns of a bounded length. In one process a request's whole
// cascade (pipeline, watch fan-out, the components it wakes) runs before the loop moves on, and
// Node's poll phase hands over every readable socket at once: 64 clients sending together made one
// turn of ~250 ms. A TLS socket takes its next write only once the previous one is reported done,
// which Node reports in the turn's check phase, so the lines written to a watch during such a turn
// left at its end (watchers saw events 100-260 ms late). Requests past the budget wait, in order,
// for the next turn.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { componentTurnOver, monotonicMs } from '../core/index.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A turn's budget of request work before later requests wait for the next turn, ms. A burst from 16
 * connections of creates (~0.5 ms each) fits in one turn, as before; 64 resizes at once (~4 ms each)
 * take a dozen turns, so a watch line waits ~20 ms rather than ~250 (bench/README.md, resize). A 5 ms
 * budget looked 5-15% slower for CREATE (5 of 6 paired runs with the client in the same process, as
 * noisy as the difference); 20 ms did not (3 pairs, either way).
 */
export const turnBudgetMs = 20;

/** `elapsedMs` is real elapsed time on a monotonic clock (tests give a fake). */
export function shortTurns(handler: Handler, budgetMs = turnBudgetMs, elapsedMs: () => number = monotonicMs): Handler {
  let turnStart: number | undefined;
  let waiting = 0;
  const endTurn = (): void => {
    turnStart = undefined;
  };
  // The first request of a turn always starts; the turn ends at the next check phase, after the
  // sockets' completed writes are reported (setImmediate runs behind them).
  const underBudget = (): boolean => {
    const now = elapsedMs();
    if (turnStart === undefined) {
      turnStart = now;
      setImmediate(endTurn);
      return true;
    }
    return now - turnStart < budgetMs;
  };
  const startWhenDue = (req: IncomingMessage, res: ServerResponse): void => {
    if (!underBudget()) {
      setImmediate(startWhenDue, req, res);
      return;
    }
    waiting--;
    handler(req, res);
  };
  return (req, res) => {
    if (waiting === 0 && underBudget()) {
      handler(req, res);
      return;
    }
    waiting++;
    setImmediate(startWhenDue, req, res);
  };
}

/** Runs an in-process write now, or on the next turn once componentTurnOver says the components' turn is over. */
export function afterComponentTurn<R>(write: () => Promise<R>): Promise<R> {
  const turn = componentTurnOver();
  return turn === undefined ? write() : turn.then(write);
}
