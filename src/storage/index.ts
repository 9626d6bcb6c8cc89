// Public surface of storage/.
export * from './store.ts';
export { MemoryStore } from './memory.ts';
export type { MemoryStoreOptions } from './memory.ts';
export { SqliteStore } from './sqlite.ts';
export type { SqliteStoreOptions } from './sqlite.ts';
