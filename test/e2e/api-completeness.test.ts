// API completeness as a kubectl user meets it, with the real kubectl 1.33 and 1.32 binaries:
// explain, server-side apply (create, conflict, force, the move from client-side apply), strict validation, server dry runs,
// a CustomResourceDefinition from creation to use to deletion, RBAC objects and `kubectl auth`,
// api-resources and /metrics.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { drydockForSuite, kubectlBinary } from './harness.ts';
import type { Drydock } from './harness.ts';

const binaries = [
  { version: '1.33', path: kubectlBinary() },
  { version: '1.32', path: join(dirname(kubectlBinary()), 'kubectl.1.32') },
];

const lines = (text: string): string[] => text.trim().split('\n').map((l) => l.trimEnd());

const crontabCrd = (suffix: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.${suffix}.example.com
spec:
  group: ${suffix}.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab, shortNames: [ct${suffix}]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Spec, type: string, jsonPath: .spec.cronSpec}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [cronSpec]
            properties:
              cronSpec: {type: string}
              image: {type: string, default: busybox}
              replicas: {type: integer, minimum: 1, maximum: 10}
`;

describe('API completeness with real kubectl', () => {
  const dd = drydockForSuite({ config: 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools: []\n' });

  for (const { version, path: binary } of binaries) {
    const v = version.replace('.', '');
    const kubectl = (args: readonly string[], input?: string): ReturnType<Drydock['kubectl']> => dd.kubectl(args, input === undefined ? { binary } : { binary, input });

    describe(`kubectl ${version}`, () => {
      test('explain prints the fields of pod.spec.containers.resizePolicy and resourceclaims.spec.devices.requests', async () => {
        let r = await kubectl(['explain', 'pod.spec.containers.resizePolicy']);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(lines(r.stdout).includes('FIELD: resizePolicy <[]ContainerResizePolicy>'), r.stdout);
        assert.ok(lines(r.stdout).some((l) => /^\s+resourceName\s+<string> -required-$/.test(l)), r.stdout);
        r = await kubectl(['explain', 'resourceclaims.spec.devices.requests']);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(lines(r.stdout).includes('FIELD: requests <[]DeviceRequest>'), r.stdout);
        assert.ok(lines(r.stdout).some((l) => /^\s+name\s+<string> -required-$/.test(l)), r.stdout);
        // The descriptions read as upstream's: quotes are text, not escapes left from the schema's source.
        r = await kubectl(['explain', 'pod.spec.initContainers.restartPolicy']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /setting the RestartPolicy as "Always"\s+for\s+the init container/);
        assert.doesNotMatch(r.stdout, /\\"/);
      });

      test('explain prints the description of a field that refers to another type, as upstream does', async () => {
        const flat = (text: string): string => text.replace(/\s+/g, ' ');
        let r = await kubectl(['explain', 'pod.spec.affinity']);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(lines(r.stdout).includes('FIELD: affinity <Affinity>'), r.stdout);
        assert.ok(flat(r.stdout).includes("DESCRIPTION: If specified, the pod's scheduling constraints Affinity is a group of affinity scheduling rules."), r.stdout);
        r = await kubectl(['explain', 'configmap.metadata']);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(flat(r.stdout).includes("DESCRIPTION: Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata ObjectMeta is metadata"), r.stdout);
        r = await kubectl(['explain', 'pod']);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(flat(r.stdout).includes('spec <PodSpec> Specification of the desired behavior of the pod.'), r.stdout);
        assert.doesNotMatch(r.stdout, /<no description>/);
        r = await kubectl(['explain', 'deployment.spec.template']);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(flat(r.stdout).includes('DESCRIPTION: Template describes the pods that will be created.'), r.stdout);
      });

      test('explain prints a CustomResourceDefinition\'s schema fields, and the x-kubernetes-* ones with their upstream text', async () => {
        let r = await kubectl(['explain', 'crd.spec.versions.schema.openAPIV3Schema.x-kubernetes-validations']);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(lines(r.stdout).includes('FIELD: x-kubernetes-validations <[]ValidationRule>'), r.stdout);
        assert.ok(r.stdout.replace(/\s+/g, ' ').includes('x-kubernetes-validations describes a list of validation rules written in the CEL expression language.'), r.stdout);
        assert.ok(lines(r.stdout).some((l) => /^\s+rule\s+<string> -required-$/.test(l)), r.stdout);
        r = await kubectl(['explain', 'crd.spec.versions.schema.openAPIV3Schema.additionalProperties']);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(lines(r.stdout).includes('FIELD: additionalProperties <JSONSchemaPropsOrBool>'), r.stdout);
      });

      test('server-side apply creates, a second manager conflicts, --force-conflicts takes over', async () => {
        const name = `ssa-${v}`;
        const file = dd.writeFile(`${name}.yaml`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n`);
        let r = await kubectl(['apply', '--server-side', '-f', file]);
        assert.equal(r.stdout.trim(), `configmap/${name} serverside-applied`, r.stderr);
        const other = dd.writeFile(`${name}-b.yaml`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "2"\n`);
        r = await kubectl(['apply', '--server-side', '--field-manager=other', '-f', other]);
        assert.equal(r.code, 1);
        assert.equal(lines(r.stderr)[0], 'error: Apply failed with 1 conflict: conflict with "kubectl": .data.a');
        r = await kubectl(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', other]);
        assert.equal(r.stdout.trim(), `configmap/${name} serverside-applied`, r.stderr);
        r = await kubectl(['get', 'configmap', name, '-o', 'json', '--show-managed-fields']);
        const cm = JSON.parse(r.stdout) as { data: Record<string, string>; metadata: { managedFields: { manager: string; operation: string; fieldsV1: unknown }[] } };
        assert.deepEqual(cm.data, { a: '2' });
        assert.deepEqual(cm.metadata.managedFields.map((m) => [m.manager, m.operation, m.fieldsV1]), [['other', 'Apply', { 'f:data': { 'f:a': {} } }]]);
      });

      test('an object kubectl applied client-side moves to server-side apply: the changed field is taken over without a conflict, then pruned when dropped', async () => {
        const name = `csa-${v}`;
        const file = dd.writeFile(`${name}.yaml`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n  b: "2"\n`);
        let r = await kubectl(['apply', '-f', file]);
        assert.equal(r.stdout.trim(), `configmap/${name} created`, r.stderr);
        dd.writeFile(`${name}.yaml`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n  b: "3"\n`);
        r = await kubectl(['apply', '--server-side', '-f', file]);
        assert.equal(r.stdout.trim(), `configmap/${name} serverside-applied`, r.stderr);
        r = await kubectl(['get', 'configmap', name, '-o', 'json', '--show-managed-fields']);
        interface ConfigMapJson { data: Record<string, string>; metadata: { annotations: Record<string, string>; managedFields: { manager: string; operation: string; time: string }[] } }
        let cm = JSON.parse(r.stdout) as ConfigMapJson;
        assert.deepEqual(cm.data, { a: '1', b: '3' });
        // kubectl's own migration then leaves its server-side managers alone, as against upstream. Entries
        // of one operation sort by their time's second, then by manager: which comes first depends on
        // whether the two applies fell in the same second.
        const managers = cm.metadata.managedFields;
        assert.deepEqual(managers.map((m) => `${m.manager}/${m.operation}`).sort(), ['kubectl-last-applied/Apply', 'kubectl/Apply']);
        const upstreamOrder = [...managers].sort((p, q) => Date.parse(p.time) - Date.parse(q.time) || (p.manager < q.manager ? -1 : 1));
        assert.deepEqual(managers, upstreamOrder);
        assert.equal(cm.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'], `{"apiVersion":"v1","data":{"a":"1","b":"3"},"kind":"ConfigMap","metadata":{"name":"${name}","namespace":"default"}}\n`);
        dd.writeFile(`${name}.yaml`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n`);
        r = await kubectl(['apply', '--server-side', '-f', file]);
        assert.equal(r.code, 0, r.stderr);
        cm = JSON.parse((await kubectl(['get', 'configmap', name, '-o', 'json'])).stdout) as ConfigMapJson;
        assert.deepEqual(cm.data, { a: '1' });
      });

      test('strict validation rejects an unknown field with the upstream message; warn only warns', async () => {
        const file = dd.writeFile(`typo-${v}.yaml`, `apiVersion: v1\nkind: Pod\nmetadata:\n  name: typo-${v}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    imagePullPolicyy: Always\n`);
        let r = await kubectl(['apply', '-f', file]);
        assert.equal(r.code, 1);
        assert.equal(r.stderr.trim(), `Error from server (BadRequest): error when creating "${file}": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolicyy"`);
        r = await kubectl(['create', '--validate=warn', '-f', file]);
        assert.equal(r.stdout.trim(), `pod/typo-${v} created`, r.stderr);
        assert.equal(r.stderr.trim(), 'Warning: unknown field "spec.containers[0].imagePullPolicyy"');
      });

      test("a field named as one of Object.prototype's members is as unknown as any other: reported, or dropped unstored", async () => {
        const file = dd.writeFile(`proto-${v}.yaml`, `apiVersion: v1\nkind: Pod\nmetadata:\n  name: proto-${v}\nspec:\n  constructor: {a: 1}\n  containers:\n  - name: c\n    image: nginx\n    valueOf: 2\n`);
        let r = await kubectl(['create', '-f', file]);
        assert.equal(r.code, 1);
        assert.equal(r.stderr.trim(), `Error from server (BadRequest): error when creating "${file}": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.constructor", unknown field "spec.containers[0].valueOf"`);
        r = await kubectl(['create', '--validate=false', '-f', file]);
        assert.equal(r.stdout.trim(), `pod/proto-${v} created`, r.stderr);
        r = await kubectl(['get', 'pod', `proto-${v}`, '-o', 'json', '--show-managed-fields']);
        const pod = JSON.parse(r.stdout) as { spec: Record<string, unknown> & { containers: Record<string, unknown>[] }; metadata: { managedFields: { fieldsV1: unknown }[] } };
        assert.equal(Object.hasOwn(pod.spec, 'constructor'), false);
        assert.equal(Object.hasOwn(pod.spec.containers[0] ?? {}, 'valueOf'), false);
        assert.doesNotMatch(JSON.stringify(pod.metadata.managedFields), /f:constructor|f:valueOf/);
      });

      test('quantities and times come back in canonical form; a quantity that does not parse fails decoding, as upstream', async () => {
        const pod = (name: string, cpu: string): string => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources:\n      requests: {cpu: "${cpu}", memory: 1024Mi}\n      limits: {cpu: 1000m, memory: 1.5Gi}\n`;
        const ok = dd.writeFile(`quantities-${v}.yaml`, pod(`quantities-${v}`, '0.5'));
        let r = await kubectl(['apply', '-f', ok]);
        assert.equal(r.code, 0, r.stderr);
        r = await kubectl(['get', 'pod', `quantities-${v}`, '-o', 'jsonpath={.spec.containers[0].resources}']);
        assert.equal(r.stdout, '{"limits":{"cpu":"1","memory":"1536Mi"},"requests":{"cpu":"500m","memory":"1Gi"}}');
        const condition = '{"status":{"conditions":[{"type":"example.com/Warm","status":"True","lastTransitionTime":"2026-01-01T10:00:00.500+01:00"}]}}';
        r = await kubectl(['patch', 'pod', `quantities-${v}`, '--subresource=status', '-p', condition]);
        assert.equal(r.code, 0, r.stderr);
        r = await kubectl(['get', 'pod', `quantities-${v}`, '-o', 'jsonpath={.status.conditions[?(@.type=="example.com/Warm")].lastTransitionTime}']);
        assert.equal(r.stdout, '2026-01-01T09:00:00Z');
        const bad = dd.writeFile(`bad-quantity-${v}.yaml`, pod(`bad-quantity-${v}`, 'half'));
        r = await kubectl(['apply', '-f', bad]);
        assert.equal(r.stderr.trim(), `Error from server (BadRequest): error when creating "${bad}": Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
      });

      test('a server dry run answers as if written and stores nothing', async () => {
        const name = `dry-${v}`;
        const file = dd.writeFile(`${name}.yaml`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n`);
        let r = await kubectl(['apply', '--dry-run=server', '-f', file]);
        assert.equal(r.stdout.trim(), `configmap/${name} created (server dry run)`, r.stderr);
        r = await kubectl(['get', 'configmap', name]);
        assert.equal(r.stderr.trim(), `Error from server (NotFound): configmaps "${name}" not found`);
        await kubectl(['apply', '-f', file]);
        r = await kubectl(['delete', 'configmap', name, '--dry-run=server']);
        assert.equal(r.stdout.trim(), `configmap "${name}" deleted (server dry run)`, r.stderr);
        r = await kubectl(['get', 'configmap', name, '-o', 'name']);
        assert.equal(r.stdout.trim(), `configmap/${name}`);
      });

      test('a CRD is served once created, validates and prints its objects, and takes them along when deleted', async () => {
        const group = `v${v}`;
        let r = await kubectl(['apply', '-f', '-'], crontabCrd(group));
        assert.equal(r.stdout.trim(), `customresourcedefinition.apiextensions.k8s.io/crontabs.${group}.example.com created`, r.stderr);
        r = await kubectl(['wait', '--for=condition=Established', `crd/crontabs.${group}.example.com`]);
        assert.equal(r.code, 0, r.stderr);
        const cr = `apiVersion: ${group}.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: "0 3 * * *"\n  replicas: 2\n`;
        r = await kubectl(['apply', '-f', '-'], cr);
        assert.equal(r.stdout.trim(), `crontab.${group}.example.com/nightly created`, r.stderr);
        r = await kubectl(['get', `ct${group}`]);
        assert.deepEqual(lines(r.stdout).map((l) => l.split(/\s{2,}/)), [['NAME', 'SPEC', 'REPLICAS'], ['nightly', '0 3 * * *', '2']]);
        r = await kubectl(['get', `crontabs.${group}.example.com`, 'nightly', '-o', 'jsonpath={.spec.image}']);
        assert.equal(r.stdout, 'busybox', 'defaults from the schema');
        r = await kubectl(['apply', '-f', '-'], cr.replace('replicas: 2', 'replicas: 20'));
        assert.equal(r.code, 1);
        assert.equal(r.stderr.trim(), `The CronTab "nightly" is invalid: spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10`);
        r = await kubectl(['delete', 'crd', `crontabs.${group}.example.com`]);
        assert.equal(r.stdout.trim(), `customresourcedefinition.apiextensions.k8s.io "crontabs.${group}.example.com" deleted`, r.stderr);
        r = await kubectl(['get', '--raw', `/apis/${group}.example.com/v1/namespaces/default/crontabs`]);
        assert.equal(r.code, 1, 'the group is no longer served');
      });

      test('RBAC objects: kubectl create role|clusterrole|rolebinding|clusterrolebinding, -o wide, apply, roleRef fixed; auth can-i and whoami', async () => {
        const ns = 'default';
        const id = v.replace('.', '-');
        let r = await kubectl(['create', 'role', `pod-reader-${id}`, '--verb=get,list,watch', '--resource=pods']);
        assert.equal(r.stdout.trim(), `role.rbac.authorization.k8s.io/pod-reader-${id} created`, r.stderr);
        r = await kubectl(['create', 'rolebinding', `read-pods-${id}`, `--role=pod-reader-${id}`, '--user=alice', '--group=devs', `--serviceaccount=${ns}:builder`]);
        assert.equal(r.stdout.trim(), `rolebinding.rbac.authorization.k8s.io/read-pods-${id} created`, r.stderr);
        r = await kubectl(['get', 'rolebinding', `read-pods-${id}`, '-o', 'wide']);
        assert.deepEqual(lines(r.stdout).map((l) => l.split(/\s{2,}/)), [
          ['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS'],
          [`read-pods-${id}`, `Role/pod-reader-${id}`, lines(r.stdout)[1]?.split(/\s{2,}/)[2] ?? '', 'alice', 'devs', `${ns}/builder`],
        ]);
        r = await kubectl(['get', 'role', `pod-reader-${id}`]);
        assert.match(r.stdout, /^NAME\s+CREATED AT\npod-reader-\S+\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
        const manifest = (role: string): string => `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: ${id}-operator}
rules:
- {apiGroups: [ray.io], resources: [rayclusters, rayclusters/status], verbs: ["*"]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: ${id}-operator}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ${role}}
subjects:
- {kind: ServiceAccount, name: operator, namespace: ${ns}}
`;
        r = await kubectl(['apply', '-f', '-'], manifest(`${id}-operator`));
        assert.deepEqual(lines(r.stdout), [`clusterrole.rbac.authorization.k8s.io/${id}-operator created`, `clusterrolebinding.rbac.authorization.k8s.io/${id}-operator created`], r.stderr);
        r = await kubectl(['apply', '-f', '-'], manifest('view'));
        assert.equal(r.code, 1);
        assert.match(r.stderr, new RegExp(`The ClusterRoleBinding "${id}-operator" is invalid: roleRef: Invalid value: rbac.RoleRef\\{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"view"\\}: cannot change roleRef`));
        r = await kubectl(['create', '-f', '-'], `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"bad","namespace":"${ns}"},"rules":[{"verbs":["get"],"nonResourceURLs":["/healthz"]}]}`);
        assert.equal(r.stderr.trim(), 'The Role "bad" is invalid: rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs');
        r = await kubectl(['auth', 'can-i', 'create', 'pods']);
        assert.equal(r.stdout.trim(), 'yes', r.stderr);
        r = await kubectl(['describe', 'clusterrolebinding', 'cluster-admin']);
        assert.match(r.stdout, /Role:\n  Kind:  ClusterRole\n  Name:  cluster-admin\nSubjects:\n  Kind\s+Name\s+Namespace\n  ----\s+----\s+---------\n  Group\s+system:masters\s*\n/, r.stdout);
        r = await kubectl(['auth', 'whoami']);
        assert.deepEqual(lines(r.stdout).map((l) => l.split(/\s{2,}/)), [['ATTRIBUTE', 'VALUE'], ['Username', 'kubernetes-admin'], ['Groups', '[system:masters system:authenticated]']], r.stderr);
      });

      test('api-resources lists short names, kinds and verbs, including the pre-installed CRDs', async () => {
        const r = await kubectl(['api-resources', '-o', 'wide']);
        assert.equal(r.code, 0, r.stderr);
        const rows = lines(r.stdout).map((l) => l.split(/\s+/));
        const row = (name: string): string[] | undefined => rows.find((cells) => cells[0] === name);
        assert.deepEqual(row('verticalpodautoscalers')?.slice(0, 5), ['verticalpodautoscalers', 'vpa', 'autoscaling.k8s.io/v1', 'true', 'VerticalPodAutoscaler']);
        assert.deepEqual(row('podgroups')?.slice(0, 5), ['podgroups', 'pg,podgroup-v1beta1', 'scheduling.volcano.sh/v1beta1', 'true', 'PodGroup']);
        assert.deepEqual(row('pods')?.slice(0, 5), ['pods', 'po', 'v1', 'true', 'Pod']);
        assert.ok(lines(r.stdout).some((l) => /^pods\s+po\s+v1\s+true\s+Pod\s+create,delete,deletecollection,get,list,patch,update,watch\s+all$/.test(l)), 'verbs');
      });
    });
  }

  test('/metrics speaks the Prometheus text format with the apiserver families', async () => {
    const r = await dd.kubectl(['get', '--raw', '/metrics']);
    assert.equal(r.code, 0, r.stderr);
    const names = new Set(lines(r.stdout).filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ')[2]));
    for (const n of ['apiserver_request_total', 'apiserver_request_duration_seconds', 'apiserver_storage_objects', 'etcd_request_duration_seconds', 'apiserver_longrunning_requests', 'apiserver_registered_watchers']) {
      assert.ok(names.has(n), n);
    }
    assert.ok(lines(r.stdout).some((l) => /^apiserver_storage_objects\{resource="namespaces"\} 4$/.test(l)), 'four namespaces stored');
  });

  test('componentstatuses: kubectl get cs warns of the deprecation and lists the control plane healthy', async () => {
    const r = await dd.kubectl(['get', 'cs']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Warning: v1 ComponentStatus is deprecated in v1\.19\+/);
    assert.deepEqual(lines(r.stdout).map((l) => l.split(/\s+/)), [['NAME', 'STATUS', 'MESSAGE', 'ERROR'], ['scheduler', 'Healthy', 'ok'], ['controller-manager', 'Healthy', 'ok'], ['etcd-0', 'Healthy', 'ok']]);
    const missing = await dd.kubectl(['get', 'cs', 'nope']);
    assert.match(missing.stderr, /Error from server: Component not found: nope/);
  });

  test('bindings: a Binding POSTed to the legacy collection binds the pod it names, once', async () => {
    await dd.ok(['apply', '-f', '-'], { input: 'apiVersion: v1\nkind: Pod\nmetadata: {name: manual}\nspec:\n  schedulerName: my-scheduler\n  containers: [{name: c, image: nginx}]\n' });
    const binding = (node: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'manual' }, target: { apiVersion: 'v1', kind: 'Node', name: node } });
    assert.equal(await dd.ok(['create', '--raw', '/api/v1/namespaces/default/bindings', '-f', '-'], { input: binding('node-a') }), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}');
    assert.equal(await dd.ok(['get', 'pod', 'manual', '-o', 'jsonpath={.spec.nodeName}']), 'node-a');
    const again = await dd.kubectl(['create', '--raw', '/api/v1/namespaces/default/bindings', '-f', '-'], { input: binding('node-b') });
    assert.equal(again.stderr, 'Error from server (Conflict): Operation cannot be fulfilled on pods/binding "manual": pod manual is already assigned to node "node-a"\n');
  });

  test('kube-system leases: the scheduler and controller manager hold theirs, with a LeaderElection event; the API server its identity lease', async () => {
    const leases = lines(await dd.ok(['get', 'leases', '-n', 'kube-system', '--no-headers'])).map((l) => l.split(/\s+/));
    assert.deepEqual(leases.map((l) => l[0]), ['apiserver-4mynuihp3pjprmwkgrnessmmxi', 'kube-controller-manager', 'kube-scheduler']);
    assert.match(leases[2]?.[1] ?? '', /^drydock-control-plane_[0-9a-f-]{36}$/);
    assert.equal(await dd.ok(['get', 'lease', '-n', 'kube-system', '-l', 'apiserver.kubernetes.io/identity=kube-apiserver', '-o', 'jsonpath={.items[0].spec.leaseDurationSeconds}']), '3600');
    const events = await dd.ok(['get', 'events', '-n', 'kube-system', '--field-selector', 'reason=LeaderElection', '-o', 'jsonpath={range .items[*]}{.involvedObject.name} {.source.component} {.message}{"\\n"}{end}']);
    assert.match(events, /^kube-scheduler default-scheduler drydock-control-plane_\S+ became leader$/m);
    assert.match(events, /^kube-controller-manager kube-controller-manager drydock-control-plane_\S+ became leader$/m);
  });

  test("a CSI driver's objects apply and print upstream's columns", async () => {
    const bundle = readFileSync(join(import.meta.dirname, '../../../test/fixtures/csi-driver-bundle.yaml'), 'utf8');
    const applied = await dd.kubectl(['apply', '-f', '-'], { input: bundle });
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(lines(applied.stdout).length, 5);
    const table = (kind: string): string[][] => lines(kindTables[kind] ?? '').map((l) => l.split(/\s{2,}/));
    const kindTables: Record<string, string> = {};
    for (const kind of ['csidrivers', 'volumeattributesclasses', 'csinodes', 'volumeattachments', 'csistoragecapacities']) kindTables[kind] = await dd.ok(['get', kind, '-A']);
    assert.deepEqual(table('csidrivers')[0], ['NAME', 'ATTACHREQUIRED', 'PODINFOONMOUNT', 'STORAGECAPACITY', 'TOKENREQUESTS', 'REQUIRESREPUBLISH', 'MODES', 'AGE']);
    assert.deepEqual(table('csidrivers')[1]?.slice(0, 7), ['s3.csi.aws.com', 'false', 'true', 'false', 'sts.amazonaws.com', 'false', 'Persistent']);
    assert.deepEqual(table('volumeattributesclasses')[1]?.slice(0, 2), ['fast-io', 'ebs.csi.aws.com']);
    assert.deepEqual(table('csinodes')[1]?.slice(0, 2), ['cpu-0', '1']);
    assert.deepEqual(table('volumeattachments')[1]?.slice(0, 5), ['csi-123', 'ebs.csi.aws.com', 'pv-1', 'cpu-0', 'false']);
    assert.deepEqual(table('csistoragecapacities')[1]?.slice(0, 4), ['default', 'cap-1', 'standard', '100Gi']);
  });

  test('podtemplates: stored with a defaulted template, listed with their containers and pod labels', async () => {
    const created = await dd.kubectl(['apply', '-f', '-'], { input: 'apiVersion: v1\nkind: PodTemplate\nmetadata: {name: trainer}\ntemplate:\n  metadata: {labels: {app: trainer}}\n  spec:\n    containers: [{name: main, image: pytorch/pytorch:2.5}]\n' });
    assert.equal(created.stdout, 'podtemplate/trainer created\n', created.stderr);
    assert.deepEqual(lines(await dd.ok(['get', 'podtemplates'])).map((l) => l.split(/\s+/)), [['NAME', 'CONTAINERS', 'IMAGES', 'POD', 'LABELS'], ['trainer', 'main', 'pytorch/pytorch:2.5', 'app=trainer']]);
    assert.equal(await dd.ok(['get', 'podtemplate', 'trainer', '-o', 'jsonpath={.metadata.generation} {.template.spec.restartPolicy}']), '1 Always');
  });

  // No nodes here: the pods stay Pending, so the count is of created pods.
  test('replicationcontrollers: the replication manager keeps the count; kubectl scale and the wide table', async () => {
    const created = await dd.kubectl(['apply', '-f', '-'], { input: 'apiVersion: v1\nkind: ReplicationController\nmetadata: {name: legacy}\nspec:\n  replicas: 2\n  template:\n    metadata: {labels: {app: legacy}}\n    spec:\n      containers: [{name: web, image: nginx:1.27}]\n' });
    assert.equal(created.stdout, 'replicationcontroller/legacy created\n', created.stderr);
    const counted = await dd.kubectl(['wait', '--for=jsonpath={.status.replicas}=2', 'rc/legacy', '--timeout=20s']);
    assert.equal(counted.code, 0, counted.stderr);
    assert.equal(await dd.ok(['get', 'pods', '-l', 'app=legacy', '-o', 'jsonpath={.items[*].metadata.ownerReferences[0].kind}']), 'ReplicationController ReplicationController');
    assert.deepEqual(lines(await dd.ok(['get', 'rc', 'legacy', '-o', 'wide'])).map((l) => l.split(/\s+/).filter((_c, i) => i !== 4)), [
      ['NAME', 'DESIRED', 'CURRENT', 'READY', 'CONTAINERS', 'IMAGES', 'SELECTOR'],
      ['legacy', '2', '2', '0', 'web', 'nginx:1.27', 'app=legacy'],
    ]);
    assert.equal(await dd.ok(['scale', 'rc', 'legacy', '--replicas=0']), 'replicationcontroller/legacy scaled\n');
    const drained = await dd.kubectl(['wait', '--for=jsonpath={.status.replicas}=0', 'rc/legacy', '--timeout=20s']);
    assert.equal(drained.code, 0, drained.stderr);
    const bad = await dd.kubectl(['create', '-f', '-'], { input: 'apiVersion: v1\nkind: ReplicationController\nmetadata: {name: bare}\nspec:\n  template:\n    spec:\n      containers: [{name: web, image: nginx}]\n' });
    assert.equal(bad.stderr.trim(), 'The ReplicationController "bare" is invalid: spec.selector: Required value');
  });

  test('servicecidrs and ipaddresses: the kubernetes range, an IPAddress per cluster IP, allocation from an added range', async () => {
    assert.deepEqual(lines(await dd.ok(['get', 'servicecidrs', 'kubernetes', '-o', 'custom-columns=NAME:.metadata.name,CIDRS:.spec.cidrs[*],READY:.status.conditions[0].status'])).map((l) => l.split(/\s+/)), [['NAME', 'CIDRS', 'READY'], ['kubernetes', '10.96.0.0/12', 'True']]);
    const outside = await dd.kubectl(['create', 'service', 'clusterip', 'edge', '--tcp=80', '--clusterip=192.168.77.10']);
    assert.equal(outside.stderr.trim(), 'error: failed to create ClusterIP service: Service "edge" is invalid: spec.clusterIPs: Invalid value: []string{"192.168.77.10"}: failed to allocate IP 192.168.77.10: the provided network does not match the current range');
    await dd.ok(['apply', '-f', '-'], { input: 'apiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata: {name: edge}\nspec:\n  cidrs: [192.168.77.0/24]\n' });
    assert.equal(await dd.ok(['create', 'service', 'clusterip', 'edge', '--tcp=80', '--clusterip=192.168.77.10']), 'service/edge created\n');
    const listed = await dd.kubectl(['wait', '--for=create', 'ipaddress/192.168.77.10', '--timeout=10s']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(lines(await dd.ok(['get', 'ip', '192.168.77.10'])).map((l) => l.split(/\s+/)), [['NAME', 'PARENTREF'], ['192.168.77.10', 'services/default/edge']]);
  });

  test('flowschemas and prioritylevelconfigurations: the bootstrap configuration, listed by precedence', async () => {
    const schemas = lines(await dd.ok(['get', 'flowschemas'])).map((l) => l.split(/\s+/).filter((_c, i) => i !== 4));
    assert.deepEqual(schemas.slice(0, 3), [
      ['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'MISSINGPL'],
      ['exempt', 'exempt', '1', '<none>', 'False'],
      ['probes', 'exempt', '2', '<none>', 'False'],
    ]);
    assert.deepEqual(schemas.at(-1), ['catch-all', 'catch-all', '10000', 'ByUser', 'False']);
    assert.deepEqual(lines(await dd.ok(['get', 'prioritylevelconfigurations', 'catch-all', 'workload-low'])).map((l) => l.split(/\s+/).slice(0, 6)), [
      ['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT'],
      ['catch-all', 'Limited', '5', '<none>', '<none>', '<none>'],
      ['workload-low', 'Limited', '100', '128', '6', '50'],
    ]);
  });

  test('certificatesigningrequests: approve with kubectl, the signer issues a client certificate, and kubectl authenticates with it', async () => {
    const fixtures = join(import.meta.dirname, '../fixtures/certificates');
    assert.equal(await dd.ok(['create', '-f', join(fixtures, 'alice-csr.yaml')]), 'certificatesigningrequest.certificates.k8s.io/alice created\n');
    assert.deepEqual(lines(await dd.ok(['get', 'csr', 'alice'])).map((l) => l.split(/\s+/).filter((_c, i) => i !== 1)), [
      ['NAME', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION'],
      ['alice', 'kubernetes.io/kube-apiserver-client', 'kubernetes-admin', '24h', 'Pending'],
    ]);
    assert.equal(await dd.ok(['certificate', 'approve', 'alice']), 'certificatesigningrequest.certificates.k8s.io/alice approved\n');
    const signed = await dd.kubectl(['wait', '--for=jsonpath={.status.conditions[0].type}=Approved', 'csr/alice', '--timeout=10s']);
    assert.equal(signed.code, 0, signed.stderr);
    let certificate = '';
    for (let i = 0; i < 50 && !certificate; i++) certificate = await dd.ok(['get', 'csr', 'alice', '-o', 'jsonpath={.status.certificate}']);
    assert.match(lines(await dd.ok(['get', 'csr', 'alice']))[1] ?? '', /Approved,Issued$/);
    const certFile = dd.writeFile('alice.crt', Buffer.from(certificate, 'base64').toString('utf8'));
    await dd.ok(['config', 'set-credentials', 'alice', `--client-certificate=${certFile}`, `--client-key=${join(fixtures, 'alice.key')}`, '--embed-certs']);
    await dd.ok(['config', 'set-context', 'alice', '--cluster=drydock', '--user=alice']);
    assert.deepEqual(lines(await dd.ok(['auth', 'whoami', '--context', 'alice'])).map((l) => l.split(/\s+/)), [['ATTRIBUTE', 'VALUE'], ['Username', 'alice'], ['Groups', '[ml-team', 'system:authenticated]']]);
    const denied = await dd.kubectl(['get', 'nodes', '--context', 'alice']);
    assert.equal(denied.stderr, 'Error from server (Forbidden): nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope\n');
  });

  test('apiservices: the served group-versions are Local and Available; kubectl wait on one returns; one behind a missing Service says why', async () => {
    const wait = await dd.kubectl(['wait', '--for=condition=Available', 'apiservice/v1beta1.metrics.k8s.io', '--timeout=10s']);
    assert.equal(wait.code, 0, wait.stderr);
    assert.equal(wait.stdout.trim(), 'apiservice.apiregistration.k8s.io/v1beta1.metrics.k8s.io condition met');
    const list = await dd.kubectl(['get', 'apiservices']);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(lines(list.stdout)[0]?.split(/\s+/), ['NAME', 'SERVICE', 'AVAILABLE', 'AGE']);
    assert.ok(lines(list.stdout).some((l) => /^v1\.apps\s+Local\s+True\s+\S+$/.test(l)), list.stdout);
    const created = await dd.kubectl(['apply', '-f', '-'], { input: `apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1alpha1.wardle.example.com}
spec: {group: wardle.example.com, version: v1alpha1, groupPriorityMinimum: 1000, versionPriority: 15, insecureSkipTLSVerify: true, service: {namespace: wardle, name: api}}
` });
    assert.equal(created.code, 0, created.stderr);
    let reason = '';
    for (let i = 0; i < 50 && reason === ''; i++) {
      const r = await dd.kubectl(['get', 'apiservice', 'v1alpha1.wardle.example.com', '-o', 'jsonpath={.status.conditions[0].reason}: {.status.conditions[0].message}']);
      reason = r.stdout.startsWith('ServiceNotFound') ? r.stdout : '';
      if (!reason) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(reason, 'ServiceNotFound: service/api in "wardle" is not present');
    const proxied = await dd.kubectl(['get', '--raw', '/apis/wardle.example.com/v1alpha1']);
    assert.equal(proxied.stderr, 'Error from server (ServiceUnavailable): the server is currently unable to handle the request\n');
    const row = await dd.kubectl(['get', 'apiservice', 'v1alpha1.wardle.example.com', '--no-headers']);
    assert.deepEqual(row.stdout.trim().split(/\s{2,}/).slice(0, 3), ['v1alpha1.wardle.example.com', 'wardle/api', 'False (ServiceNotFound)']);
    const bad = await dd.kubectl(['apply', '-f', '-'], { input: 'apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {name: v1.wrong}\nspec: {group: example.com, version: v1, groupPriorityMinimum: 0, versionPriority: 10}\n' });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /The APIService "v1.wrong" is invalid: \n\* metadata.name: Invalid value: "v1.wrong": must be `spec.version\+"."\+spec.group`: "v1.example.com"\n\* spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000/);
  });
});
