// For tests: a CEL expression's value in the policies' environment (Kubernetes' libraries, `self`
// declared), a map as a plain object, or `error: <first line of the message>`.
import { dynEnvironment } from './cel-libraries.ts';

const env = dynEnvironment(['self']);

export function runCel(expression: string, self: unknown = {}): unknown {
  try {
    const v = env.evaluate(expression, { self });
    return v instanceof Map ? Object.fromEntries(v) : v;
  } catch (error) {
    return `error: ${(error as Error).message.split('\n')[0]}`;
  }
}
