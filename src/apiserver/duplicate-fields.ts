// Finds keys that appear twice in one JSON object, for fieldValidation=Strict/Warn. JSON.parse keeps
// the last silently, as Go's decoder does; strict decoding reports each repeat by its path.
// Upstream: sigs.k8s.io/json internal/golang/encoding/json (duplicate field strict errors).

/**
 * One open container. Paths are built only for a repeat (rare), so a frame remembers how it hangs
 * off its parent instead of its path; an object's keys so far are a small array, cheaper than a Set.
 */
interface Frame {
  readonly parent: Frame | undefined;
  /** The key (parent object) or index (parent array) this container sits at. */
  readonly at: string | number | undefined;
  /** Keys so far for an object (an array while small, then a Set); undefined for an array. */
  keys: string[] | Set<string> | undefined;
  /** The next index, for an array. */
  index: number;
}

function pathOf(frame: Frame | undefined): string {
  if (!frame || frame.at === undefined) return '';
  const parent = pathOf(frame.parent);
  if (typeof frame.at === 'number') return `${parent}[${frame.at}]`;
  return parent === '' ? frame.at : `${parent}.${frame.at}`;
}

const smallObject = 16;

/** Whether `key` was seen before in the object `frame`; records it if not. */
function seen(frame: Frame, key: string): boolean {
  const keys = frame.keys;
  if (keys instanceof Set) {
    if (keys.has(key)) return true;
    keys.add(key);
    return false;
  }
  if (keys === undefined) return false;
  if (keys.includes(key)) return true;
  keys.push(key);
  if (keys.length > smallObject) frame.keys = new Set(keys);
  return false;
}

/** Paths of repeated keys in document order: `metadata.name`, `spec.containers[0].image`. Assumes valid JSON. */
export function duplicateFields(text: string): string[] {
  const found: string[] = [];
  let top: Frame | undefined;
  let pendingKey: string | undefined;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x5c) {
          escaped = true;
          j += 2;
          continue;
        }
        if (d === 0x22) break;
        j++;
      }
      const start = i;
      i = j + 1;
      if (top?.keys && pendingKey === undefined) {
        let k = i;
        let e = text.charCodeAt(k);
        while (e === 0x20 || e === 0x0a || e === 0x09 || e === 0x0d) e = text.charCodeAt(++k);
        if (e === 0x3a /* : */) {
          const key = escaped ? (JSON.parse(text.slice(start, j + 1)) as string) : text.slice(start + 1, j);
          if (seen(top, key)) {
            const path = pathOf(top);
            found.push(path === '' ? key : `${path}.${key}`);
          }
          pendingKey = key;
          i = k + 1;
        }
      }
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const at = top === undefined ? undefined : top.keys ? pendingKey : top.index;
      top = { parent: top, at, keys: c === 0x7b ? [] : undefined, index: 0 };
      pendingKey = undefined;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      top = top?.parent;
      pendingKey = undefined;
    } else if (c === 0x2c /* , */) {
      if (top && !top.keys) top.index++;
      pendingKey = undefined;
    }
    i++;
  }
  return found;
}
