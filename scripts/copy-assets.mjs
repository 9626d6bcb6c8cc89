// Copies what the compiled code reads from beside itself into dist/: test/fixtures (dist/test/fixtures),
// so a test finds its manifests by the same relative path whether it runs from source (tsx) or from
// dist/, and the OpenAPI descriptions beside their compiled module (src/apiserver/openapi/definitions.ts).
import { cpSync } from 'node:fs';

cpSync('test/fixtures', 'dist/test/fixtures', { recursive: true });
cpSync('src/apiserver/openapi/generated/openapi-descriptions.json', 'dist/src/apiserver/openapi/generated/openapi-descriptions.json');
