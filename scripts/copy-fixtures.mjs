// Copies test/fixtures beside the compiled tests (dist/test/fixtures), so a test finds its
// manifests by the same relative path whether it runs from source (tsx) or from dist/.
import { cpSync } from 'node:fs';

cpSync('test/fixtures', 'dist/test/fixtures', { recursive: true });
