// Public surface of core/: pure helpers with no I/O (process-start.ts only schedules work around a startup snapshot).
export * from './errors.ts';
export * from './field-errors.ts';
export * from './clock.ts';
export * from './random.ts';
export * from './json-copy.ts';
export * from './own-keys.ts';
export * from './json-equal.ts';
export * from './meta.ts';
export * from './quantity.ts';
export * from './query-bool.ts';
export * from './labels.ts';
export * from './fields.ts';
export * from './duration.ts';
export * from './rfc3339.ts';
export * from './process-start.ts';
export * from './ip.ts';
export * from './der.ts';
