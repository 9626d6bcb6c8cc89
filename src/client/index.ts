// Public surface of client/.
export * from './client.ts';
