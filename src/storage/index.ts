// Public surface of storage/.
export * from './store.ts';
