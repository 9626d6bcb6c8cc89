// Digest references as a containerd-backed kubelet reports them in containerStatuses[].imageID.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageID } from './images.ts';

test('an imageID is the normalized repository at the SHA-256 of the normalized reference', () => {
  const id = imageID('nginx');
  assert.match(id, /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  assert.equal(imageID('docker.io/library/nginx:latest'), id);
  assert.notEqual(imageID('nginx:1.27'), id);
  const digest = `ghcr.io/org/app@sha256:${'a'.repeat(64)}`;
  assert.equal(imageID(digest), digest);
});

test('an imageID asked again, or after many other images, is the same', () => {
  const id = imageID('registry.example.com/team/model:v3');
  for (let i = 0; i < 1100; i++) imageID(`app-${i}:v1`);
  assert.equal(imageID('registry.example.com/team/model:v3'), id);
  assert.equal(imageID('registry.example.com/team/model:v3'), id);
});
