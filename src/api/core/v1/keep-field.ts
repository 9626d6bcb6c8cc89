// The status/spec split of update strategies: a write through one endpoint keeps the other
// part exactly as stored (PrepareForUpdate's `newObj.Status = oldObj.Status`).
// Upstream: pkg/registry/*/strategy.go (PrepareForUpdate of the main and status strategies).

/**
 * Sets `to[key]` to `from[key]`, or removes it when the stored object has none. The value is
 * shared, not copied: `from` is the stored object, which no write path changes.
 */
export function keepField<T extends object, K extends keyof T>(to: T, from: Readonly<T>, key: K): void {
  const value = from[key];
  if (value === undefined) delete to[key];
  else to[key] = value;
}
