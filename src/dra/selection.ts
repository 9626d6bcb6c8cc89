// Selector matching for the allocator: every CEL selector (class first, then request) must be
// true. Compiled programs and per-device results are cached (by expression text), so a device is
// evaluated at most once per expression for the life of its slice.
// Upstream: structured/internal/stable/allocator_stable.go (selectorsMatch).
import type { DeepReadonly } from '../core/index.ts';
import type { resourceV1 } from '../api/index.ts';
import { compileDeviceSelector, evaluate } from '../api/index.ts';
import { celDeviceOf } from './inventory.ts';
import type { DeviceRecord } from './inventory.ts';

/**
 * True when all selectors match, false when one does not, or the error message (prefixed with
 * `owner`: `class <name>` or `claim <ns>/<name>`) for a compile or runtime error.
 */
export function selectorsMatch(d: DeviceRecord, selectors: readonly DeepReadonly<resourceV1.DeviceSelector>[], owner: string): boolean | string {
  for (const [i, s] of selectors.entries()) {
    const expression = s.cel?.expression ?? '';
    let r = d.selection.get(expression);
    if (!r) {
      const compiled = compileDeviceSelector(expression);
      if (!compiled.ok) return `${owner}: selector #${i}: CEL compile error: ${compiled.message}`;
      const cel = celDeviceOf(d);
      r = 'error' in cel ? { ok: false, message: cel.error } : evaluate(compiled.program, cel);
      d.selection.set(expression, r);
    }
    if (!r.ok) return `${owner}: selector #${i}: CEL runtime error: ${r.message}`;
    if (!r.matches) return false;
  }
  return true;
}
