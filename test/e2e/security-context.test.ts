// The kubernetes.io security-context task page (pods/security/security-context.yaml) as its reader
// follows it: a shell in the busybox container goes to the fsGroup emptyDir, writes a file and lists
// it, and `id` shows the user and groups the pod asked for.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');
/** An ls -l date (`Jun  6 20:08`), which is the cluster's time of day. */
const lsDate = /[A-Z][a-z]{2} [ \d]\d \d\d:\d\d/g;

describe('the security-context task page', () => {
  const dd = drydockForSuite();

  test('in the fsGroup emptyDir a file the runAsUser writes is 1000:2000 under the setgid directory; id shows uid 1000, gid 3000 and the groups', async () => {
    await dd.ok(['apply', '-f', '-'], { input: fixture('security-context.yaml') });
    await dd.ok(['wait', '--for=condition=Ready', 'pod/security-context-demo', '--timeout=30s']);
    const steps = 'cd /data/demo\nls -la\necho hello > testfile\nls -l\nid\nexit\n';
    const r = await dd.kubectl(['exec', '-i', 'security-context-demo', '--', 'sh'], { input: steps });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout.replace(lsDate, 'MMM DD HH:MM'),
      [
        'total 8',
        'drwxrwsrwx    2 root     2000          4096 MMM DD HH:MM .',
        'drwxr-xr-x    2 root     root          4096 MMM DD HH:MM ..',
        'total 4',
        '-rw-r--r--    1 1000     2000             6 MMM DD HH:MM testfile',
        'uid=1000 gid=3000 groups=2000,3000,4000',
        '',
      ].join('\n'),
    );
    assert.equal(await dd.ok(['exec', 'security-context-demo', '--', 'cat', '/data/demo/testfile']), 'hello\n', 'the file stays in the emptyDir after the shell ended');
  });
});
