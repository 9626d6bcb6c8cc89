// Claim constraints. matchAttribute: every device allocated for the listed requests (all when
// empty; "req" also covers "req/sub") has the attribute, with the same type and value as the
// first one. Constraints are monotonic, so the search can drop a branch as soon as one fails.
// Upstream: structured/internal/stable/allocator_stable.go (matchAttributeConstraint).
import type { DeepReadonly } from '../core/index.ts';
import type { resourceV1 } from '../api/index.ts';
import type { DeviceRecord } from './inventory.ts';

type Attribute = DeepReadonly<resourceV1.DeviceAttribute>;

/** lookupAttribute: the fully-qualified name, or the short name when the domain is the driver's. */
export function lookupAttribute(d: DeviceRecord, name: string): Attribute | undefined {
  const attrs = d.device.attributes ?? {};
  const full = attrs[name];
  if (full) return full;
  const i = name.indexOf('/');
  if (i < 0 || name.slice(0, i) !== d.driver) return undefined;
  return attrs[name.slice(i + 1)];
}

function sameValue(a: Attribute, b: Attribute): boolean {
  // semver 2.0.0 versions are in minimal form, so versions compare as strings (as upstream).
  if (a.string !== undefined) return b.string === a.string;
  if (a.int !== undefined) return b.int === a.int;
  if (a.bool !== undefined) return b.bool === a.bool;
  if (a.version !== undefined) return b.version === a.version;
  return false;
}

export class MatchAttributeConstraint {
  readonly #requests: ReadonlySet<string>;
  readonly #attribute: string;
  #first: Attribute | undefined;
  #count = 0;

  constructor(requests: readonly string[], attribute: string) {
    this.#requests = new Set(requests);
    this.#attribute = attribute;
  }

  #applies(request: string, sub: string | undefined): boolean {
    if (this.#requests.size === 0) return true;
    return this.#requests.has(request) || (sub !== undefined && this.#requests.has(`${request}/${sub}`));
  }

  /** Whether add() would take the device now, with nothing counted. */
  accepts(request: string, sub: string | undefined, d: DeviceRecord): boolean {
    if (!this.#applies(request, sub)) return true;
    const attr = lookupAttribute(d, this.#attribute);
    return attr !== undefined && (this.#count === 0 || (this.#first !== undefined && sameValue(attr, this.#first)));
  }

  /** Whether the device may join; when true, it is counted until remove() with the same request. */
  add(request: string, sub: string | undefined, d: DeviceRecord): boolean {
    if (!this.#applies(request, sub)) return true;
    const attr = lookupAttribute(d, this.#attribute);
    if (!attr) return false;
    if (this.#count === 0) {
      this.#first = attr;
      this.#count = 1;
      return true;
    }
    if (!this.#first || !sameValue(attr, this.#first)) return false;
    this.#count++;
    return true;
  }

  remove(request: string, sub: string | undefined): void {
    if (this.#applies(request, sub)) this.#count--;
  }
}
