// What the API server's storage holds for a set of pods, measured rather than estimated: the
// stored texts of the pods and of the Events about them, the records a MemoryStore keeps per key,
// and each pod decoded once (the object every in-process reader shares). Issue 4 asks for the
// memory per pod "beyond the stored object"; this is the part subtracted.
import { MemoryStore } from '../src/storage/index.ts';
import type { Store } from '../src/storage/index.ts';
import { gc } from './harness.ts';

export interface StoredFootprint {
  pods: number;
  /** Characters of the stored texts (one byte each: the texts are ASCII JSON). */
  textBytes: number;
  /** A MemoryStore's per-key records for the same values. */
  recordBytes: number;
  /** The pods decoded once. */
  decodedBytes: number;
}

const heapUsed = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

export async function storedFootprint(store: Store, namespace: string): Promise<StoredFootprint> {
  const pods = (await store.list(`/registry/core/pods/${namespace}/`)).items;
  const events = (await store.list(`/registry/core/events/${namespace}/`)).items.filter((kv) => (JSON.parse(kv.value) as { involvedObject?: { kind?: string } }).involvedObject?.kind === 'Pod');
  const values = [...pods, ...events].map((kv) => kv.value);
  const before = heapUsed();
  const copy = new MemoryStore();
  let i = 0;
  for (const value of values) await copy.create(`/k/${i++}`, value);
  const records = heapUsed() - before;
  const decoded = pods.map((kv) => JSON.parse(kv.value) as unknown);
  const decodedBytes = heapUsed() - before - records;
  // Held until here, so the readings above include them.
  void decoded.length;
  void copy.revision();
  return { pods: pods.length, textBytes: values.reduce((n, v) => n + v.length, 0), recordBytes: records, decodedBytes };
}

/** Per pod in KB: the whole stored footprint, and its parts spelled "total (texts + records + decoded pod)". */
export function perPodKb(f: StoredFootprint): { total: number; parts: string } {
  const kb = (bytes: number): number => bytes / 1024 / Math.max(f.pods, 1);
  const total = kb(f.textBytes + f.recordBytes + f.decodedBytes);
  return { total, parts: `${total.toFixed(1)} (${kb(f.textBytes).toFixed(1)} + ${kb(f.recordBytes).toFixed(1)} + ${kb(f.decodedBytes).toFixed(1)})` };
}
