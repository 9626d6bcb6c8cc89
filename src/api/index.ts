// Public surface of api/: the kinds and their definitions.
export * from './resource.ts';
export * from './registry.ts';
export * from './core/v1/pod.ts';
export * from './refs.ts';
export * from './validation/index.ts';
