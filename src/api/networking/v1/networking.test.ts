// networking.k8s.io/v1 validation and defaults in upstream's words: Ingress rules, paths and
// backends, IngressClass parameters, NetworkPolicy ports, peers and CIDRs; and the printer cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { Ingress, IngressClass } from './ingress.ts';
import { ingressClassDefinition, ingressDefinition } from './ingress.ts';
import type { NetworkPolicy } from './network-policy.ts';
import { defaultNetworkPolicy, networkPolicyDefinition } from './network-policy.ts';

const ctx = { now: 0 };
const messages = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const ingress = (spec: NonNullable<Ingress['spec']>, annotations?: Record<string, string>): Ingress => ({ metadata: { name: 'web', namespace: 'default', ...(annotations ? { annotations } : {}) }, spec });
const backend = { service: { name: 'web', port: { number: 80 } } };

test('Ingress: rules, paths and backends as upstream validates them', () => {
  const validate = (i: Ingress): string[] => messages(ingressDefinition.validateCreate?.(i, ctx));
  assert.deepEqual(validate(ingress({ rules: [{ host: '*.example.com', http: { paths: [{ path: '/v1', pathType: 'Prefix', backend }] } }], tls: [{ hosts: ['*.example.com'], secretName: 'tls' }] })), []);
  assert.deepEqual(validate(ingress({})), ['spec: Invalid value: []: either `defaultBackend` or `rules` must be specified']);
  assert.deepEqual(validate(ingress({ rules: [{ host: 'a.com', http: { paths: [{ path: '/', backend }] } }] })), ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']);
  assert.deepEqual(validate(ingress({ rules: [{ http: { paths: [{ path: 'v1/../x', pathType: 'Exact', backend }] } }] })), [
    'spec.rules[0].http.paths[0].path: Invalid value: "v1/../x": must be an absolute path',
    `spec.rules[0].http.paths[0].path: Invalid value: "v1/../x": must not contain '/../'`,
  ]);
  assert.deepEqual(validate(ingress({ rules: [{ http: { paths: [{ path: '/', pathType: 'Regex', backend }] } }] })), ['spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"']);
  assert.deepEqual(validate(ingress({ defaultBackend: { service: { name: 'web', port: { name: 'http', number: 80 } } } })), ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number']);
  assert.deepEqual(validate(ingress({ defaultBackend: { service: { name: 'web' } } })), ['spec.defaultBackend: Required value: port name or number is required']);
  assert.deepEqual(validate(ingress({ defaultBackend: {} })), ['spec.defaultBackend: Invalid value: "": resource or service backend is required']);
  assert.deepEqual(validate(ingress({ defaultBackend: backend, ingressClassName: 'nginx' }, { 'kubernetes.io/ingress.class': 'traefik' })), ['annotations[kubernetes.io/ingress.class]: Invalid value: "traefik": must match `ingressClassName` when both are specified']);
  assert.deepEqual(validate(ingress({ rules: [{ host: 'bad*.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] })), [
    `spec.rules[0].host: Invalid value: "bad*.example.com": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]);
});

test('Ingress printer cells: class, hosts, ports', () => {
  const cells = ingressDefinition.table?.cells(ingress({ ingressClassName: 'nginx', tls: [{ hosts: ['a.com'] }], rules: ['a.com', 'b.com', 'c.com', 'd.com'].map((host) => ({ host })) }), 0);
  assert.deepEqual(cells?.slice(1, 5), ['nginx', 'a.com,b.com,c.com + 1 more...', '', '80, 443']);
  assert.deepEqual(ingressDefinition.table?.cells(ingress({ defaultBackend: backend }), 0).slice(1, 5), ['<none>', '*', '', '80']);
});

test('IngressClass: controller a domain-prefixed path, parameters scoped, scope defaulted to Cluster', () => {
  const ic = (spec: NonNullable<IngressClass['spec']>): IngressClass => ({ metadata: { name: 'nginx' }, spec });
  const defaulted = ic({ controller: 'k8s.io/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' } });
  ingressClassDefinition.defaults?.(defaulted);
  assert.equal(defaulted.spec?.parameters?.scope, 'Cluster');
  assert.deepEqual(messages(ingressClassDefinition.validateCreate?.(defaulted, ctx)), []);
  assert.deepEqual(ingressClassDefinition.table?.cells(defaulted, 0).slice(1, 3), ['k8s.io/ingress-nginx', 'IngressParameters.k8s.example.com/external-lb']);
  assert.deepEqual(messages(ingressClassDefinition.validateCreate?.(ic({ controller: 'nginx', parameters: { kind: 'P', name: 'x', scope: 'Namespace' } }), ctx)), [
    'spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
    "spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'",
  ]);
});

test('NetworkPolicy: TCP and Ingress by default; ports, peers and CIDRs as upstream validates them', () => {
  const np: NetworkPolicy = { metadata: { name: 'p', namespace: 'default' }, spec: { egress: [{ ports: [{ port: 53 }] }] } };
  defaultNetworkPolicy(np);
  assert.deepEqual(np.spec, { egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }], podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
  const validate = (spec: NetworkPolicy['spec']): string[] => messages(networkPolicyDefinition.validateCreate?.({ metadata: { name: 'p', namespace: 'default' }, spec: { podSelector: {}, ...spec } }, ctx));
  assert.deepEqual(validate({ ingress: [{ from: [{}] }] }), ['spec.ingress[0].from[0]: Required value: must specify a peer']);
  assert.deepEqual(validate({ ingress: [{ ports: [{ port: 'http', endPort: 90 }, { endPort: 90 }, { protocol: 'ICMP' }] }] }), [
    'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
    'spec.ingress[0].ports[1].endPort: Invalid value: 90: may not be specified when `port` is not specified',
    'spec.ingress[0].ports[2].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
  ]);
  assert.deepEqual(validate({ egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16', '192.168.0.0/16', '10.0.0.0/8'] } }] }] }), [
    'spec.egress[0].to[0].ipBlock.except[1]: Invalid value: "192.168.0.0/16": must be a strict subset of `cidr`',
    'spec.egress[0].to[0].ipBlock.except[2]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
  ]);
  assert.deepEqual(validate({ egress: [{ to: [{ ipBlock: { cidr: 'fd00::/8', except: ['fd12::/16'] } }] }] }), []);
  assert.deepEqual(networkPolicyDefinition.table?.cells({ metadata: { name: 'p' }, spec: { podSelector: {} } }, 0)[1], '<none>');
});
