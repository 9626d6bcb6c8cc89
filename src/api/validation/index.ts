// Shared validation: name formats, label/annotation rules and ObjectMeta checks every kind uses.
export * from './names.ts';
export * from './object-meta.ts';
export * from './string-formats.ts';
