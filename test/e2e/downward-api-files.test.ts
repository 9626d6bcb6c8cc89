// The kubernetes.io task page "Expose Pod Information to Containers Through Files"
// (pods/inject/dapi-volume.yaml) as its reader follows it: a shell in the container reads the labels and
// annotations the downward API volume holds, and `ls -laR /etc/podinfo` shows the atomic writer's
// layout: the timestamped directory, the ..data link to it, and a link a file.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');
/**
 * What changes from run to run: an ls -l date (the cluster's time of day), the atomic writer's directory
 * named after it with a random number of 1-10 digits (os.MkdirTemp), and so the ..data link's size.
 */
const masked = (text: string): string =>
  text
    .replace(/[A-Z][a-z]{2} [ \d]\d \d\d:\d\d/g, 'MMM DD HH:MM')
    .replace(/\d\d( MMM DD HH:MM \.\.data -> )/, 'NN$1')
    .replace(/\.\.\d{4}(_\d\d){5}\.\d+/g, '..TIMESTAMP');

describe('the downward API files task page', () => {
  const dd = drydockForSuite();

  test('cat shows the labels and annotations; ls -laR /etc/podinfo shows the links and the timestamped directory', async () => {
    // create, not the page's apply: apply's last-applied-configuration annotation would be one more line of the file.
    await dd.ok(['create', '-f', '-'], { input: fixture('dapi-volume.yaml') });
    await dd.ok(['wait', '--for=condition=Ready', 'pod/kubernetes-downwardapi-volume-example', '--timeout=30s']);
    const steps = 'cat /etc/podinfo/labels; echo\ncat /etc/podinfo/annotations; echo\nls -laR /etc/podinfo\nexit\n';
    const r = await dd.kubectl(['exec', '-i', 'kubernetes-downwardapi-volume-example', '--', 'sh'], { input: steps });
    assert.equal(r.code, 0, r.stderr);
    const dataLink = / (\d+) \S+ [ \d]\d \d\d:\d\d \.\.data -> (\S+)$/m.exec(r.stdout);
    assert.equal(Number(dataLink?.[1]), dataLink?.[2]?.length, "a link's size is its target's length");
    assert.equal(
      masked(r.stdout),
      [
        'cluster="test-cluster1"',
        'rack="rack-22"',
        // The binding's PodTopologyLabelsAdmission copies the node's topology labels onto the pod.
        'topology.kubernetes.io/region="drydock"',
        'topology.kubernetes.io/zone="drydock-a"',
        'zone="us-est-coast"',
        'build="two"',
        'builder="john-doe"',
        '/etc/podinfo:',
        'total 12',
        'drwxrwxrwt    3 root     root          4096 MMM DD HH:MM .',
        'drwxr-xr-x    2 root     root          4096 MMM DD HH:MM ..',
        'drwxr-xr-x    2 root     root          4096 MMM DD HH:MM ..TIMESTAMP',
        'lrwxrwxrwx    1 root     root            NN MMM DD HH:MM ..data -> ..TIMESTAMP',
        'lrwxrwxrwx    1 root     root            18 MMM DD HH:MM annotations -> ..data/annotations',
        'lrwxrwxrwx    1 root     root            13 MMM DD HH:MM labels -> ..data/labels',
        '',
        '/etc/podinfo/..TIMESTAMP:',
        'total 16',
        'drwxr-xr-x    2 root     root          4096 MMM DD HH:MM .',
        'drwxrwxrwt    3 root     root          4096 MMM DD HH:MM ..',
        '-rw-r--r--    1 root     root            30 MMM DD HH:MM annotations',
        '-rw-r--r--    1 root     root           138 MMM DD HH:MM labels',
        '',
      ].join('\n'),
    );
  });
});
