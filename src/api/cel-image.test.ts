// Kubernetes' Image CEL library against the examples upstream's library documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCel as run } from './cel.test-support.ts';
const digest = 'sha256:6aefddb645ee6963afd681b1845c661d0ea4c3b20ab9db86d9e753b203d385f2';

test("image(): registry, repository, tag, digest and identifier as go-containerregistry reads a reference", () => {
  const cases: [string, unknown][] = [
    ["image('kube-apiserver-arm64:testtag').registry()", 'index.docker.io'],
    ["image('registry.k8s.io/kube-apiserver-arm64:latest').registry()", 'registry.k8s.io'],
    ["image('registry.k8s.io/kube-apiserver-arm64').repository()", 'kube-apiserver-arm64'],
    ["image('nginx').repository() + ' ' + image('docker.io/nginx:1.27').registry()", 'library/nginx index.docker.io'],
    ["image('registry.k8s.io/kube-apiserver-arm64').tag()", 'latest'],
    ["image('registry.k8s.io/kube-apiserver-arm64:testtag').tag()", 'testtag'],
    [`image('registry.k8s.io/kube-apiserver-arm64@${digest}').digest()`, digest],
    [`image('registry.k8s.io/kube-apiserver-arm64:latest@${digest}').identifier()`, digest],
    ["image('registry.k8s.io/kube-apiserver-arm64:testtag').identifier()", 'testtag'],
    [`image('registry.k8s.io/kube-apiserver-arm64:latest@${digest}').containsDigest() && !image('registry.k8s.io/kube-apiserver-arm64').containsDigest()`, true],
    ["isImage('nvcr.io/nvidia/pytorch:24.08-py3') && !isImage('registry.k8s.io//kube-apiserver-arm64') && !isImage('Nginx')", true],
    ["image('registry.k8s.io//kube-apiserver-arm64')", 'error: could not parse reference: registry.k8s.io//kube-apiserver-arm64'],
  ];
  for (const [expression, want] of cases) assert.equal(run(expression), want, expression);
});
