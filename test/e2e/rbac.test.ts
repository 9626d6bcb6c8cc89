// RBAC as a kubectl user meets it: the admin may do anything; a service account's token or
// `--as` may do what its roles allow, with upstream's 403 messages otherwise; `kubectl auth can-i`
// (with --list) answers from the same roles; impersonation needs the impersonate verb.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\n';
const trainer = 'system:serviceaccount:ml:trainer';

describe('RBAC enforced for everyone but the admin', () => {
  let dd: Drydock;
  let token = '';
  before(async () => {
    dd = await startDrydock({ config });
    await dd.ok(['create', 'namespace', 'ml']);
    await dd.ok(['create', 'serviceaccount', 'trainer', '-n', 'ml']);
    token = (await dd.ok(['create', 'token', 'trainer', '-n', 'ml'])).trim();
  });
  after(async () => {
    await dd?.stop();
  });

  test('a fresh service account may discover the API and ask about itself, nothing more', async () => {
    const list = await dd.kubectl(['get', 'pods', '-n', 'ml', '--token', token]);
    assert.equal(list.stderr.trim(), `Error from server (Forbidden): pods is forbidden: User "${trainer}" cannot list resource "pods" in API group "" in the namespace "ml"`);
    const nodes = await dd.kubectl(['get', 'node', 'cpu-0', '--token', token]);
    assert.equal(nodes.stderr.trim(), `Error from server (Forbidden): nodes "cpu-0" is forbidden: User "${trainer}" cannot get resource "nodes" in API group "" at the cluster scope`);
    assert.match(await dd.ok(['auth', 'whoami', '--token', token]), new RegExp(`^Username\\s+${trainer}$`, 'm'));
    const canI = await dd.kubectl(['auth', 'can-i', 'list', 'pods', '-n', 'ml', '--token', token]);
    assert.equal(canI.stdout.trim(), 'no');
    assert.equal((await dd.ok(['auth', 'can-i', 'list', 'pods', '-n', 'ml'])).trim(), 'yes', 'the admin');
  });

  test('a Role and RoleBinding grant what they say, in their namespace only', async () => {
    await dd.ok(['create', 'role', 'job-runner', '-n', 'ml', '--verb=get,list,watch,create', '--resource=pods,jobs.batch']);
    await dd.ok(['create', 'rolebinding', 'trainer-runs-jobs', '-n', 'ml', '--role=job-runner', '--serviceaccount=ml:trainer']);
    assert.equal((await dd.ok(['auth', 'can-i', 'create', 'jobs', '-n', 'ml', '--as', trainer])).trim(), 'yes');
    assert.equal((await dd.kubectl(['auth', 'can-i', 'delete', 'jobs', '-n', 'ml', '--as', trainer])).stdout.trim(), 'no');
    assert.equal((await dd.kubectl(['auth', 'can-i', 'create', 'jobs', '-n', 'default', '--as', trainer])).stdout.trim(), 'no');
    assert.equal((await dd.ok(['create', 'job', 'train', '-n', 'ml', '--image=busybox', '--token', token, '--', 'sleep', '1'])).trim(), 'job.batch/train created');
    assert.match(await dd.ok(['get', 'jobs', '-n', 'ml', '--as', trainer]), /^train\s/m);
    const remove = await dd.kubectl(['delete', 'job', 'train', '-n', 'ml', '--token', token]);
    assert.equal(remove.stderr.trim(), `Error from server (Forbidden): jobs.batch "train" is forbidden: User "${trainer}" cannot delete resource "jobs" in API group "batch" in the namespace "ml"`);
    const listed = await dd.ok(['auth', 'can-i', '--list', '-n', 'ml', '--token', token]);
    assert.match(listed, /^pods\s+\[\]\s+\[\]\s+\[get list watch create\]$/m, listed);
    assert.match(listed, /^jobs\.batch\s+\[\]\s+\[\]\s+\[get list watch create\]$/m, listed);
    assert.match(listed, /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m, listed);
  });

  test('resourceNames allow a watch of that one object (kubectl get cm x -w), not a list of all', async () => {
    await dd.ok(['create', 'configmap', 'run-config', '-n', 'ml']);
    await dd.ok(['create', 'role', 'one-config', '-n', 'ml', '--verb=get,list,watch', '--resource=configmaps', '--resource-name=run-config']);
    await dd.ok(['create', 'rolebinding', 'trainer-reads-config', '-n', 'ml', '--role=one-config', '--serviceaccount=ml:trainer']);
    // kubectl asks for the list, then the watch, with fieldSelector=metadata.name=run-config.
    const watched = await dd.kubectl(['get', 'configmap', 'run-config', '-n', 'ml', '-w', '--request-timeout=2s', '--token', token]);
    assert.match(watched.stdout, /^run-config\s/m, watched.stderr);
    assert.doesNotMatch(watched.stderr, /Forbidden/);
    const all = await dd.kubectl(['get', 'configmaps', '-n', 'ml', '--token', token]);
    assert.equal(all.stderr.trim(), `Error from server (Forbidden): configmaps is forbidden: User "${trainer}" cannot list resource "configmaps" in API group "" in the namespace "ml"`);
  });

  test('a binding to a missing role leaves the answer incomplete, with the reason', async () => {
    await dd.ok(['create', 'clusterrolebinding', 'trainer-reads-nodes', '--clusterrole=node-reader', `--serviceaccount=ml:trainer`]);
    const nodes = await dd.kubectl(['get', 'nodes', '--token', token]);
    assert.equal(nodes.stderr.trim(), `Error from server (Forbidden): nodes is forbidden: User "${trainer}" cannot list resource "nodes" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "node-reader" not found`);
    const listed = await dd.kubectl(['auth', 'can-i', '--list', '--token', token]);
    assert.match(listed.stderr, /the list may be incomplete: clusterrole\.rbac\.authorization\.k8s\.io "node-reader" not found/);
    await dd.ok(['create', 'clusterrole', 'node-reader', '--verb=get,list', '--resource=nodes']);
    assert.match(await dd.ok(['get', 'nodes', '--token', token]), /^cpu-0\s+Ready/m);
  });

  test('the bootstrap edit and view roles, filled by aggregation, are what their bindings grant', async () => {
    await dd.ok(['create', 'namespace', 'team-b']);
    await dd.ok(['create', 'rolebinding', 'trainer-edits', '-n', 'team-b', '--clusterrole=edit', '--serviceaccount=ml:trainer']);
    await dd.ok(['create', 'rolebinding', 'bob-views', '-n', 'team-b', '--clusterrole=view', '--user=bob']);
    const can = async (args: string[]): Promise<string> => (await dd.kubectl(['auth', 'can-i', ...args, '-n', 'team-b'])).stdout.trim();
    assert.equal(await can(['create', 'deployments.apps', '--as', trainer]), 'yes');
    assert.equal(await can(['create', 'resourceclaims.resource.k8s.io', '--as', trainer]), 'yes');
    assert.equal(await can(['create', 'rolebindings.rbac.authorization.k8s.io', '--as', trainer]), 'no', 'edit grants no RBAC');
    assert.equal(await can(['list', 'pods', '--as', 'bob']), 'yes');
    assert.equal(await can(['get', 'secrets', '--as', 'bob']), 'no', 'view reads no secrets');
    assert.equal(await can(['delete', 'pods', '--as', 'bob']), 'no');
    assert.equal((await dd.ok(['create', 'deployment', 'web', '-n', 'team-b', '--image=nginx', '--token', token])).trim(), 'deployment.apps/web created');
  });

  test('a second scheduler bound to the bootstrap system:kube-scheduler role may do what the scheduler does, and no more', async () => {
    await dd.ok(['create', 'serviceaccount', 'gang-scheduler', '-n', 'kube-system']);
    await dd.ok(['create', 'clusterrolebinding', 'gang-scheduler', '--clusterrole=system:kube-scheduler', '--serviceaccount=kube-system:gang-scheduler']);
    await dd.ok(['create', 'clusterrolebinding', 'gang-scheduler-volumes', '--clusterrole=system:volume-scheduler', '--serviceaccount=kube-system:gang-scheduler']);
    const scheduler = 'system:serviceaccount:kube-system:gang-scheduler';
    const can = async (args: string[]): Promise<string> => (await dd.kubectl(['auth', 'can-i', ...args, '--as', scheduler])).stdout.trim();
    assert.equal(await can(['create', 'pods', '--subresource=binding', '-n', 'ml']), 'yes');
    assert.equal(await can(['update', 'resourceclaims.resource.k8s.io', '--subresource=status', '-n', 'ml']), 'yes');
    assert.equal(await can(['list', 'resourceslices.resource.k8s.io']), 'yes');
    assert.equal(await can(['patch', 'persistentvolumes']), 'yes', 'system:volume-scheduler');
    assert.equal(await can(['create', 'deployments.apps', '-n', 'ml']), 'no');
    // The components' own users hold their roles, as on a kubeadm cluster.
    assert.equal((await dd.ok(['auth', 'can-i', 'list', 'nodes', '--as', 'system:kube-scheduler'])).trim(), 'yes');
    assert.match(await dd.ok(['get', 'clusterrolebinding', 'system:node-proxier', '-o', 'wide']), /system:node-proxier\s+ClusterRole\/system:node-proxier\s+\S+\s+system:kube-proxy/);
    // An aggregated API server's install (metrics-server's) binds its account to this kube-system Role.
    await dd.ok(['create', 'rolebinding', 'metrics-server-auth-reader', '-n', 'kube-system', '--role=extension-apiserver-authentication-reader', '--serviceaccount=kube-system:metrics-server']);
    const reader = 'system:serviceaccount:kube-system:metrics-server';
    assert.equal((await dd.ok(['auth', 'can-i', 'get', 'configmaps/extension-apiserver-authentication', '-n', 'kube-system', '--as', reader])).trim(), 'yes');
    assert.equal((await dd.kubectl(['auth', 'can-i', 'get', 'configmaps/other', '-n', 'kube-system', '--as', reader])).stdout.trim(), 'no');
  });

  test('no escalation: a user may grant only what it holds, unless it may escalate or bind', async () => {
    await dd.ok(['create', 'role', 'rbac-writer', '-n', 'ml', '--verb=create,update', '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io']);
    await dd.ok(['create', 'rolebinding', 'trainer-writes-rbac', '-n', 'ml', '--role=rbac-writer', '--serviceaccount=ml:trainer']);
    const held = await dd.kubectl(['create', 'role', 'pod-reader', '-n', 'ml', '--verb=get,list', '--resource=pods', '--token', token]);
    assert.equal(held.stdout.trim(), 'role.rbac.authorization.k8s.io/pod-reader created', held.stderr);
    const more = await dd.kubectl(['create', 'role', 'pod-killer', '-n', 'ml', '--verb=get,delete', '--resource=pods', '--token', token]);
    assert.equal(more.stderr.trim(), [
      `Error from server (Forbidden): roles.rbac.authorization.k8s.io "pod-killer" is forbidden: user "${trainer}" (groups=["system:serviceaccounts" "system:serviceaccounts:ml" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:`,
      '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    ].join('\n'));
    const bindAdmin = await dd.kubectl(['create', 'rolebinding', 'self-admin', '-n', 'ml', '--clusterrole=admin', `--serviceaccount=ml:trainer`, '--token', token]);
    assert.match(bindAdmin.stderr, /rolebindings\.rbac\.authorization\.k8s\.io "self-admin" is forbidden: user "system:serviceaccount:ml:trainer" .* is attempting to grant RBAC permissions not currently held:\n/);
    // With `bind` on the admin ClusterRole, in this namespace, the binding is allowed.
    await dd.ok(['create', 'role', 'admin-binder', '-n', 'ml', '--verb=bind', '--resource=clusterroles.rbac.authorization.k8s.io', '--resource-name=admin']);
    await dd.ok(['create', 'rolebinding', 'trainer-binds-admin', '-n', 'ml', '--role=admin-binder', '--serviceaccount=ml:trainer']);
    assert.equal((await dd.ok(['create', 'rolebinding', 'self-admin', '-n', 'ml', '--clusterrole=admin', '--serviceaccount=ml:trainer', '--token', token])).trim(), 'rolebinding.rbac.authorization.k8s.io/self-admin created');
  });

  test('impersonation: groups as given, and only for whoever may impersonate', async () => {
    await dd.ok(['create', 'clusterrolebinding', 'ml-team-views-pods', '--clusterrole=view-pods', '--group=ml-team']);
    await dd.ok(['create', 'clusterrole', 'view-pods', '--verb=list', '--resource=pods']);
    assert.equal((await dd.ok(['auth', 'can-i', 'list', 'pods', '-A', '--as', 'alice', '--as-group', 'ml-team'])).trim(), 'yes');
    assert.equal((await dd.kubectl(['auth', 'can-i', 'list', 'pods', '-A', '--as', 'alice'])).stdout.trim(), 'no');
    const whoami = await dd.ok(['auth', 'whoami', '--as', 'alice', '--as-group', 'ml-team']);
    assert.match(whoami, /^Groups\s+\[ml-team system:authenticated\]$/m, whoami);
    const refused = await dd.kubectl(['get', 'pods', '-n', 'ml', '--token', token, '--as', 'alice']);
    assert.equal(refused.stderr.trim(), `Error from server (Forbidden): users "alice" is forbidden: User "${trainer}" cannot impersonate resource "users" in API group "" at the cluster scope`);
  });

  test('a SubjectAccessReview asks about another user (what a webhook or proxy sends)', async () => {
    const review = (attributes: string): string => `apiVersion: authorization.k8s.io/v1\nkind: SubjectAccessReview\nspec:\n  user: ${trainer}\n  groups: [system:serviceaccounts, system:serviceaccounts:ml, system:authenticated]\n  resourceAttributes: ${attributes}\n`;
    const ask = (attributes: string): Promise<string> => dd.ok(['create', '-f', '-', '-o', 'jsonpath={.status}'], { input: review(attributes) });
    assert.match(await ask('{namespace: ml, verb: create, group: batch, resource: jobs}'), /^\{"allowed":true,"reason":"RBAC: allowed by RoleBinding \\"[a-z-]+\/ml\\" of (Cluster)?Role \\"[a-z-]+\\" to ServiceAccount \\"trainer\/ml\\""\}$/);
    assert.equal(await ask('{verb: delete, resource: nodes}'), '{"allowed":false}');
  });
});
