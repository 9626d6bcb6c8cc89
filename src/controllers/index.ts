// Public surface of controllers/: one controller per folder.
export { NamespaceController } from './namespace/controller.ts';
