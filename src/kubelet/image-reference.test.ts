// Image references the kubelet cannot parse, in the image manager's words (InvalidImageName).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invalidImageMessage } from './image-reference.ts';

test('references Docker normalizes are accepted', () => {
  for (const image of ['nginx', 'nginx:1.27', 'library/nginx', 'docker.io/library/nginx:latest', 'ghcr.io/org/app:v1.2.3', 'localhost:5000/a/b', 'Registry.Example.com/app', `nginx@sha256:${'a'.repeat(64)}`, 'nvcr.io/nvidia/pytorch:24.05-py3', 'my_app__x/y-z.w:TAG_1']) {
    assert.equal(invalidImageMessage(image), undefined, image);
  }
});

test("references that do not parse get the image manager's message", () => {
  const cases: [string, string][] = [
    ['Nginx:Latest', 'invalid reference format: repository name (library/Nginx) must be lowercase'],
    ['nginx:', 'invalid reference format'],
    ['nginx::1', 'invalid reference format'],
    ['-nginx', 'invalid reference format'],
    ['nginx:1.27@sha256:abc', 'invalid reference format'],
    [`nginx@sha256:${'a'.repeat(63)}0a`, 'invalid checksum digest length'],
    [`nginx@sha256:${'A'.repeat(64)}`, 'invalid checksum digest format'],
    [`nginx@md5:${'a'.repeat(32)}`, 'unsupported digest algorithm'],
    ['a'.repeat(64), `invalid repository name (${'a'.repeat(64)}), cannot specify 64-byte hexadecimal strings`],
  ];
  for (const [image, error] of cases) {
    assert.equal(invalidImageMessage(image), `Failed to apply default image tag ${JSON.stringify(image)}: couldn't parse image name ${JSON.stringify(image)}: ${error}`, image);
  }
});

test('a reference checked again, or after many others, gets the same answer', () => {
  const bad = 'Nginx:Latest';
  const first = invalidImageMessage(bad);
  assert.equal(invalidImageMessage(bad), first);
  for (let i = 0; i < 1100; i++) assert.equal(invalidImageMessage(`app-${i}:v1`), undefined);
  assert.equal(invalidImageMessage('nginx'), undefined);
  assert.equal(invalidImageMessage(bad), first);
  assert.match(first ?? '', /must be lowercase$/);
});
