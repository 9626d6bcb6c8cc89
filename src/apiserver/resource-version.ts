// A request's resourceVersion as APIObjectVersioner.ParseResourceVersion reads it: "" and "0" are 0,
// anything else a uint64. Its failure is a storage InvalidError, which each handler words its own way.
import { ApiError, StatusReason, goQuote } from '../core/index.ts';

export function readResourceVersion(text: string): number | { invalid: string } {
  if (text === '' || text === '0') return 0;
  const why = !/^\d+$/.test(text) ? 'invalid syntax' : BigInt(text) > 18446744073709551615n ? 'value out of range' : '';
  if (why === '') return Number(text);
  return { invalid: `resourceVersion: Invalid value: ${goQuote(text)}: strconv.ParseUint: parsing ${goQuote(text)}: ${why}` };
}

/**
 * A get's or a watch's resourceVersion: the cacher passes the versioner's InvalidError on, no
 * metav1.Status, so a plain 500 with its words (a list words it as a 400 of its own).
 */
export function requestedResourceVersion(text: string): number {
  const rv = readResourceVersion(text);
  if (typeof rv === 'object') throw new ApiError(StatusReason.Unknown, rv.invalid);
  return rv;
}
