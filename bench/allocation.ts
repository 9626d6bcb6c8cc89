// Bytes a piece of work allocates, collected garbage included: V8's sampling heap profiler with
// includeObjectsCollectedByMajorGC/MinorGC, summed. Unlike wall or CPU time on a shared machine, the
// figure does not move with the load, so a change to a hot path shows in it at once.
import { Session } from 'node:inspector/promises';

interface SampledNode {
  selfSize: number;
  children: SampledNode[];
}

const total = (node: SampledNode): number => node.children.reduce((sum, child) => sum + total(child), node.selfSize);

/** What `work` allocates, in bytes (a sample every `intervalBytes` on average). */
export async function allocatedBytes(work: () => Promise<void>, intervalBytes = 4096): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.startSampling', { samplingInterval: intervalBytes, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    await work();
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: SampledNode } };
    return total(profile.head);
  } finally {
    session.disconnect();
  }
}
