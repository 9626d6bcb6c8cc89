import assert from 'node:assert/strict';
import { test } from 'node:test';
import { imageRoot } from './container-files.ts';
import type { ContainerFiles } from './container-files.ts';
import { shellFiles } from './shell-files.ts';

/** A container whose writable layer is / and an emptyDir is at /opt, kept for its life. */
const container = (): ContainerFiles => {
  const scratch = { kind: 'dir' as const, entries: new Map(), mode: 0o777, writable: true as const };
  const layer = imageRoot(true);
  return { mounts: [{ path: '/', node: layer }, { path: '/opt', node: scratch }], writtenAt: 0, layer };
};

test('a reader sees the appends made up to its own time, whichever process ran first; a truncation is seen at once', () => {
  const files = container();
  const fs = shellFiles(() => files, '/', true);
  const out = fs.create('/opt/logs.txt', true);
  assert.ok(!('error' in out));
  out.write('logging\n', 1000);
  out.write('logging\n', 2004);
  const file = fs.open('/opt/logs.txt');
  assert.ok(!('error' in file));
  const text = (at: number): string => String(file.read(at));
  assert.deepEqual([text(999), text(1000), text(2000), text(2004)], ['', 'logging\n', 'logging\n', 'logging\nlogging\n']);
  const truncated = fs.create('/opt/logs.txt', false);
  assert.ok(!('error' in truncated));
  assert.equal(text(0), '', '> empties the file for every reader');
  truncated.write('new\n', 3000);
  const reopened = fs.open('/opt/logs.txt');
  assert.ok(!('error' in reopened));
  assert.equal(reopened.id, file.id, 'the same file (inode): tail -F does not say it was replaced');
  assert.equal(text(3000), 'new\n');
});

test('appends land in order however many there are, each costing what it adds', () => {
  const files = container();
  const fs = shellFiles(() => files, '/opt', true);
  const out = fs.create('counter', true);
  assert.ok(!('error' in out));
  let expected = '';
  for (let i = 0; i < 5000; i++) {
    out.write(`${i}\n`, i);
    expected += `${i}\n`;
  }
  const file = fs.open('/opt/counter');
  assert.ok(!('error' in file));
  assert.equal(String(file.read(5000)), expected);
});
