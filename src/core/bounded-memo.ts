// A memo for a pure function over keys without end (request paths, image names): a result is computed
// once a key, and the memo is emptied when full, so a stream of distinct keys costs memory up to the limit.

export function boundedMemo<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined && !kept.has(key)) {
      value = compute(key);
      if (kept.size >= limit) kept.clear();
      kept.set(key, value);
    }
    return value as V;
  };
}
