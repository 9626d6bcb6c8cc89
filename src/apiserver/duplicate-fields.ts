// Finds keys that appear twice in one JSON object, for fieldValidation=Strict/Warn. JSON.parse keeps
// the last silently, as Go's decoder does; strict decoding reports each repeat by its path.
// Upstream: sigs.k8s.io/json internal/golang/encoding/json (duplicate field strict errors).

/** Paths of repeated keys in document order: `metadata.name`, `spec.containers[0].image`. Assumes valid JSON. */
export function duplicateFields(text: string): string[] {
  const found: string[] = [];
  // One frame per open container: its path, its keys so far (objects) or next index (arrays).
  const stack: { path: string; keys: Set<string> | undefined; index: number }[] = [];
  let pendingKey: string | undefined;
  let i = 0;
  const n = text.length;
  const childPath = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    if (top.keys) return top.path === '' ? (pendingKey ?? '') : `${top.path}.${pendingKey ?? ''}`;
    return `${top.path}[${top.index}]`;
  };
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
      const raw = text.slice(i, j + 1);
      i = j + 1;
      const top = stack[stack.length - 1];
      if (top?.keys && pendingKey === undefined) {
        let k = i;
        while (k < n && (text[k] === ' ' || text[k] === '\n' || text[k] === '\t' || text[k] === '\r')) k++;
        if (text[k] === ':') {
          const key = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
          if (top.keys.has(key)) found.push(top.path === '' ? key : `${top.path}.${key}`);
          top.keys.add(key);
          pendingKey = key;
          i = k + 1;
        }
      }
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const path = childPath();
      stack.push({ path, keys: c === 0x7b ? new Set() : undefined, index: 0 });
      pendingKey = undefined;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      pendingKey = undefined;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top && !top.keys) top.index++;
      pendingKey = undefined;
    }
    i++;
  }
  return found;
}
