// Slow-start batching of creates: 1, 2, 4, ... at a time, stopping after the first batch with a
// failure, so a quota or admission error costs one request rather than hundreds.
// Upstream: pkg/controller/replicaset/replica_set.go (slowStartBatch), controller_utils.go (SlowStartInitialBatchSize).

export const slowStartInitialBatchSize = 1;

/** Runs fn `count` times in batches of 1, 2, 4, ... stopping after the first batch with a failure. */
export async function slowStartBatch(count: number, initial: number, fn: () => Promise<void>): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initial); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, fn));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += results.filter((r) => r.status === 'fulfilled').length;
    if (failed) return { successes, error: failed.reason };
    remaining -= batch;
  }
  return { successes };
}
