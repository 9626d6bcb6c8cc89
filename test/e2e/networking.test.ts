// networking.k8s.io/v1 as a chart's user meets it: the IngressClass, Ingress and NetworkPolicy of an
// inference chart apply (strict validation against the served OpenAPI), print upstream's columns,
// the Ingress takes the default class, and invalid ones get upstream's messages.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');
const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\n';

describe('Ingress, IngressClass and NetworkPolicy', () => {
  const dd = drydockForSuite({ config });

  test('an inference chart\'s networking objects apply and print upstream\'s columns', async () => {
    const path = dd.writeFile('vllm-ingress.yaml', fixture('vllm-ingress.yaml'));
    assert.equal(await dd.ok(['apply', '-f', path]), 'ingressclass.networking.k8s.io/nginx created\ningress.networking.k8s.io/vllm created\nnetworkpolicy.networking.k8s.io/vllm-from-gateway created\n');
    assert.match(await dd.ok(['get', 'ingressclass']), /^NAME\s+CONTROLLER\s+PARAMETERS\s+AGE\nnginx\s+k8s\.io\/ingress-nginx\s+<none>\s+\S+\n$/);
    assert.match(await dd.ok(['get', 'ingress']), /^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE\nvllm\s+nginx\s+llm\.example\.com\s+80, 443\s+\S+\n$/, 'the default class filled in');
    assert.match(await dd.ok(['get', 'netpol']), /^NAME\s+POD-SELECTOR\s+AGE\nvllm-from-gateway\s+app=vllm\s+\S+\n$/);
    assert.equal(await dd.ok(['get', 'netpol', 'vllm-from-gateway', '-o', 'jsonpath={.spec.policyTypes} {.spec.ingress[0].ports[0].protocol}']), '["Ingress"] TCP');
    // The policy's ports are an atomic list and the server defaulted their protocol, so kubectl's
    // three-way patch replaces the list again (as against any cluster); the other two are unchanged.
    assert.match(await dd.ok(['apply', '-f', path]), /^ingressclass\.networking\.k8s\.io\/nginx unchanged\ningress\.networking\.k8s\.io\/vllm unchanged\n/);
  });

  test('kubectl create ingress, and upstream\'s refusals', async () => {
    assert.equal((await dd.ok(['create', 'ingress', 'docs', '--rule=docs.example.com/*=docs:http'])).trim(), 'ingress.networking.k8s.io/docs created');
    assert.equal(await dd.ok(['get', 'ingress', 'docs', '-o', 'jsonpath={.spec.rules[0].http.paths[0].pathType} {.spec.ingressClassName}']), 'Prefix nginx');
    const ip = await dd.kubectl(['create', 'ingress', 'by-ip', '--rule=10.0.0.1/=web:80']);
    assert.equal(ip.stderr.trim(), 'error: failed to create ingress: Ingress.networking.k8s.io "by-ip" is invalid: spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address');
  });
});
