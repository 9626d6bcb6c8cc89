// A request's resourceVersion as APIObjectVersioner.ParseResourceVersion reads it: "" and "0" are 0,
// anything else a uint64. Its failure is a storage InvalidError, which each handler words its own way.
import { goQuote } from '../core/index.ts';

export function readResourceVersion(text: string): number | { invalid: string } {
  if (text === '' || text === '0') return 0;
  const why = !/^\d+$/.test(text) ? 'invalid syntax' : BigInt(text) > 18446744073709551615n ? 'value out of range' : '';
  if (why === '') return Number(text);
  return { invalid: `resourceVersion: Invalid value: ${goQuote(text)}: strconv.ParseUint: parsing ${goQuote(text)}: ${why}` };
}
