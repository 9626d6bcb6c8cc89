// The status/spec split of update strategies: a write through one endpoint keeps the other
// part exactly as stored (PrepareForUpdate's `newObj.Status = oldObj.Status`).
// Upstream: pkg/registry/*/strategy.go (PrepareForUpdate of the main and status strategies).

/** Sets `to[key]` to a copy of `from[key]`, or removes it when the stored object has none. */
export function keepField<T extends object, K extends keyof T>(to: T, from: T, key: K): void {
  const value = from[key];
  if (value === undefined) delete to[key];
  else to[key] = structuredClone(value);
}
