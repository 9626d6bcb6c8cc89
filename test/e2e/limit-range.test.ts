// LimitRange as a namespace's user meets it: `kubectl run` gets the defaults (and the annotation that
// says so), a container above the maximum is refused in upstream's words, and the table and
// `kubectl describe` show the range.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');
const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\n';

describe('LimitRange', () => {
  const dd = drydockForSuite({ config });

  test('defaults are set, the maximum is enforced, and kubectl shows the range', async () => {
    const path = dd.writeFile('limit-range.yaml', fixture('limit-range.yaml'));
    assert.equal(await dd.ok(['apply', '-f', path]), 'namespace/team-b created\nlimitrange/container-defaults created\n');
    assert.match(await dd.ok(['get', 'limits', '-n', 'team-b']), /^NAME\s+CREATED AT\ncontainer-defaults\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
    assert.match(await dd.ok(['describe', 'limitrange', 'container-defaults', '-n', 'team-b']), /^Container\s+cpu\s+-\s+2\s+250m\s+500m\s+-$/m);
    await dd.ok(['run', 'web', '-n', 'team-b', '--image=nginx:1.27']);
    assert.equal(await dd.ok(['get', 'pod', 'web', '-n', 'team-b', '-o', 'jsonpath={.spec.containers[0].resources}']), '{"limits":{"cpu":"500m","memory":"256Mi"},"requests":{"cpu":"250m","memory":"128Mi"}}');
    assert.equal(await dd.ok(['get', 'pod', 'web', '-n', 'team-b', '-o', 'jsonpath={.metadata.annotations.kubernetes\\.io/limit-ranger}']), 'LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web');
    const big = await dd.kubectl(['run', 'trainer', '-n', 'team-b', '--image=pytorch/pytorch', '--overrides={"spec":{"containers":[{"name":"trainer","image":"pytorch/pytorch","resources":{"limits":{"cpu":"8"}}}]}}']);
    assert.equal(big.stderr.trim(), 'Error from server (Forbidden): pods "trainer" is forbidden: maximum cpu usage per Container is 2, but limit is 8');
  });
});
