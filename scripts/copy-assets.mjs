// Copies what the compiled code reads from beside itself into dist/: test/fixtures (dist/test/fixtures),
// so a test finds its manifests by the same relative path whether it runs from source (tsx) or from
// dist/, and the OpenAPI descriptions (src/apiserver/openapi/descriptions.ts) beside their compiled
// module and beside the bundle, whose every module has the bundle's URL. Runs before scripts/bundle.mjs,
// whose warm-up serves the documents.
import { cpSync } from 'node:fs';

cpSync('test/fixtures', 'dist/test/fixtures', { recursive: true });
const descriptions = 'src/apiserver/openapi/generated/openapi-descriptions.json';
cpSync(descriptions, 'dist/src/apiserver/openapi/generated/openapi-descriptions.json');
cpSync(descriptions, 'dist/generated/openapi-descriptions.json');
