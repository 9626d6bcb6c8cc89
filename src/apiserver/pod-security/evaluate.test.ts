// The Pod Security checks as a pod's author meets them: a table of pods and the message each level
// gives, in upstream's words and order (expected texts from the upstream check tests and from real
// 1.2x-1.35 clusters' refusals).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, PodSpec } from '../../api/index.ts';
import type { ObjectMeta } from '../../core/index.ts';
import { evaluatePod, forbiddenDetail, maxPolicyMinor } from './evaluate.ts';
import type { LevelVersion } from './policy.ts';

const restrictedContainer: Container = { name: 'c', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } };
const spec = (s: Partial<PodSpec>): PodSpec => ({ containers: [{ name: 'c', image: 'nginx' }], ...s });
const container = (name: string, c: Partial<Container> = {}): Container => ({ name, image: 'nginx', ...c });

const message = (lv: LevelVersion, s: PodSpec, meta: ObjectMeta = {}): string => forbiddenDetail(evaluatePod(lv, meta, s));
const baseline: LevelVersion = { level: 'baseline', version: 'latest' };
const restricted: LevelVersion = { level: 'restricted', version: 'latest' };

test('latest is policy v1.35, the newest revision of any check', () => {
  assert.equal(maxPolicyMinor, 35);
});

test('a plain pod breaks four restricted checks and no baseline one', () => {
  assert.equal(message(baseline, spec({})), '');
  assert.equal(
    message(restricted, spec({})),
    'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  );
  assert.equal(message(restricted, spec({ containers: [restrictedContainer] })), '');
  assert.equal(message({ level: 'privileged', version: 'latest' }, spec({ hostNetwork: true })), '');
});

test('restricted lists baseline reasons first, then its own, each in check-ID order', () => {
  const pod = spec({
    hostNetwork: true,
    hostPID: true,
    volumes: [{ name: 'host', hostPath: { path: '/' } }],
    containers: [container('container-00', { securityContext: { privileged: true, runAsUser: 0 } })],
  });
  assert.equal(
    message(restricted, pod),
    'host namespaces (hostNetwork=true, hostPID=true), privileged (container "container-00" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "container-00" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "container-00" must set securityContext.capabilities.drop=["ALL"]), restricted volume types (volume "host" uses restricted volume type "hostPath"), runAsNonRoot != true (pod or container "container-00" must set securityContext.runAsNonRoot=true), runAsUser=0 (container "container-00" must not set runAsUser=0), seccompProfile (pod or container "container-00" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  );
  assert.equal(message(baseline, pod), 'host namespaces (hostNetwork=true, hostPID=true), hostPath volumes (volume "host"), privileged (container "container-00" must not set securityContext.privileged=true)');
});

const baselineCases: [string, PodSpec, ObjectMeta, string][] = [
  ['host namespaces, network then PID then IPC', spec({ hostIPC: true, hostPID: true, hostNetwork: true }), {}, 'host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)'],
  ['privileged containers of every kind', spec({ initContainers: [container('i', { securityContext: { privileged: true } })], containers: [container('a', { securityContext: { privileged: true } }), container('b')] }), {}, 'privileged (containers "i", "a" must not set securityContext.privileged=true)'],
  ['capabilities beyond the default set', spec({ containers: [container('c', { securityContext: { capabilities: { add: ['SYS_ADMIN', 'CHOWN', 'NET_RAW'] } } })] }), {}, 'non-default capabilities (container "c" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add)'],
  ['hostPath volumes', spec({ volumes: [{ name: 'a', hostPath: { path: '/a' } }, { name: 'e', emptyDir: {} }, { name: 'b', hostPath: { path: '/b' } }] }), {}, 'hostPath volumes (volumes "a", "b")'],
  ['host ports, as strings in order', spec({ containers: [container('a', { ports: [{ containerPort: 80, hostPort: 8080 }] }), container('b', { ports: [{ containerPort: 80, hostPort: 80 }, { containerPort: 443, hostPort: 443 }, { containerPort: 90 }] })] }), {}, 'hostPort (containers "a", "b" use hostPorts 443, 80, 8080)'],
  ['one host port', spec({ containers: [container('a', { ports: [{ containerPort: 80, hostPort: 80 }] })] }), {}, 'hostPort (container "a" uses hostPort 80)'],
  ['AppArmor field and annotation', spec({ securityContext: { appArmorProfile: { type: 'Unconfined' } } }), { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined', 'container.apparmor.security.beta.kubernetes.io/d': 'localhost/x' } }, 'forbidden AppArmor profiles (pod and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/c="unconfined"")'],
  ['AppArmor annotations, as upstream\'s own test has them', spec({}), { annotations: { 'container.apparmor.security.beta.kubernetes.io/': 'bogus', 'container.apparmor.security.beta.kubernetes.io/a': '', 'container.apparmor.security.beta.kubernetes.io/b': 'runtime/default', 'container.apparmor.security.beta.kubernetes.io/c': 'localhost/', 'container.apparmor.security.beta.kubernetes.io/e': 'unconfined', 'container.apparmor.security.beta.kubernetes.io/f': 'unknown' } }, 'forbidden AppArmor profiles (annotations must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/="bogus"", "container.apparmor.security.beta.kubernetes.io/e="unconfined"", "container.apparmor.security.beta.kubernetes.io/f="unknown"")'],
  ['AppArmor on a container', spec({ containers: [container('c', { securityContext: { appArmorProfile: { type: 'Unconfined' } } })] }), {}, 'forbidden AppArmor profile (container "c" must not set AppArmor profile type to "Unconfined")'],
  ['SELinux type, user and role', spec({ securityContext: { seLinuxOptions: { type: 'spc_t' } }, containers: [container('c', { securityContext: { seLinuxOptions: { user: 'u', role: 'r', type: 'container_engine_t' } } })] }), {}, 'seLinuxOptions (pod and container "c" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set; role may not be set)'],
  ['SELinux, as upstream\'s own test has it', spec({ securityContext: { seLinuxOptions: { type: 'foo', user: 'bar', role: 'baz' } }, containers: ['container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t', 'bar'].map((type, i) => container('abcde'[i] ?? '', { securityContext: { seLinuxOptions: { type } } })).concat([container('f', { securityContext: { seLinuxOptions: { user: 'bar' } } }), container('g', { securityContext: { seLinuxOptions: { role: 'baz' } } })]) }), {}, 'seLinuxOptions (pod and containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set)'],
  ['an unmasked /proc', spec({ containers: [container('c', { securityContext: { procMount: 'Unmasked' } })] }), {}, 'procMount (container "c" must not set securityContext.procMount to "Unmasked")'],
  ['an unmasked /proc in a user namespace', spec({ hostUsers: false, containers: [container('c', { securityContext: { procMount: 'Unmasked' } })] }), {}, ''],
  ['an unconfined seccomp profile', spec({ securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [container('a', { securityContext: { seccompProfile: { type: 'Unconfined' } } }), container('b')] }), {}, 'seccompProfile (pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined")'],
  ['unsafe sysctls, in order', spec({ securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }, { name: 'net.ipv4.tcp_rmem', value: '1' }, { name: 'net.core.somaxconn', value: '1' }] } }), {}, 'forbidden sysctls (kernel.msgmax, net.core.somaxconn)'],
  ['Windows host processes', spec({ securityContext: { windowsOptions: { hostProcess: true } }, containers: [container('c', { securityContext: { windowsOptions: { hostProcess: true } } })] }), {}, 'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)'],
  ['probe and lifecycle hosts', spec({ containers: [container('b', { livenessProbe: { httpGet: { port: 80, host: '10.0.0.1' } } }), container('a', { readinessProbe: { tcpSocket: { port: 80, host: 'example.com' } }, lifecycle: { preStop: { httpGet: { port: 80, host: '10.0.0.1' } } } })] }), {}, 'probe or lifecycle host (containers "a", "b" use probe or lifecycle hosts "10.0.0.1", "example.com")'],
];

for (const [name, s, meta, expected] of baselineCases) {
  test(`baseline:latest, ${name}`, () => assert.equal(message(baseline, s, meta), expected));
}

const restrictedCases: [string, PodSpec, string][] = [
  ['volume types beyond the allowed nine, hostPath reported once', spec({ containers: [restrictedContainer], volumes: [{ name: 'h', hostPath: { path: '/' } }, { name: 'n', nfs: { server: 's', path: '/' } }, { name: 'i', image: { reference: 'x' } }, { name: 'p', persistentVolumeClaim: { claimName: 'c' } }] }), 'restricted volume types (volumes "h", "n" use restricted volume types "hostPath", "nfs")'],
  ['capabilities neither dropped nor limited to NET_BIND_SERVICE, baseline\'s check replaced', spec({ containers: [{ ...restrictedContainer, securityContext: { ...restrictedContainer.securityContext, capabilities: { add: ['NET_BIND_SERVICE', 'SYS_ADMIN'] } } }] }), 'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "SYS_ADMIN" in securityContext.capabilities.add)'],
  ['runAsNonRoot set false', spec({ securityContext: { runAsNonRoot: false, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ ...restrictedContainer, securityContext: { ...restrictedContainer.securityContext, runAsNonRoot: false } }] }), 'runAsNonRoot != true (pod and container "c" must not set securityContext.runAsNonRoot=false)'],
  ['root by uid, at pod level', spec({ securityContext: { runAsUser: 0 }, containers: [restrictedContainer] }), 'runAsUser=0 (pod must not set runAsUser=0)'],
  ['root in a user namespace', spec({ hostUsers: false, securityContext: { runAsUser: 0, runAsNonRoot: false }, containers: [restrictedContainer] }), ''],
  ['an unmasked /proc, even in a user namespace', spec({ hostUsers: false, containers: [{ ...restrictedContainer, securityContext: { ...restrictedContainer.securityContext, procMount: 'Unmasked' } }] }), 'procMount (container "c" must not set securityContext.procMount to "Unmasked")'],
  ['a Windows pod, spared the Linux-only checks', spec({ os: { name: 'windows' } }), 'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)'],
];

for (const [name, s, expected] of restrictedCases) {
  test(`restricted:latest, ${name}`, () => assert.equal(message(restricted, s), expected));
}

test('restricted volume types: the nine allowed pass, every other one is named, and a volume of no known type is "unknown"', () => {
  const allowed = ['emptyDir', 'secret', 'persistentVolumeClaim', 'downwardAPI', 'configMap', 'projected', 'csi', 'ephemeral', 'image'].map((type, i) => ({ name: `a${i + 1}`, [type]: {} }));
  const types = ['hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos'];
  const restrictedOnes = types.map((type, i) => ({ name: `b${i + 1}`, [type]: {} }));
  const volumes = [...allowed, ...restrictedOnes, { name: 'c1' }] as NonNullable<PodSpec['volumes']>;
  const found = evaluatePod(restricted, {}, spec({ containers: [restrictedContainer], volumes })).map((v) => `${v.reason}: ${v.detail}`);
  assert.deepEqual(found, [
    'restricted volume types: volumes "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11", "b12", "b13", "b14", "b15", "b16", "b17", "b18", "b19", "b20", "b21", "c1" use restricted volume types ' +
      '"awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "fc", "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", "hostPath", "iscsi", "nfs", "photonPersistentDisk", "portworxVolume", "quobyte", "rbd", "scaleIO", "storageos", "unknown", "vsphereVolume"',
  ]);
});

test('unrestricted capabilities lists the missing drop and the forbidden adds together', () => {
  const s = spec({ containers: [container('a', { securityContext: { capabilities: { add: ['SYS_ADMIN'] } } }), container('b', { securityContext: { capabilities: { drop: ['ALL'], add: ['NET_ADMIN'] } } })] });
  const unrestricted = evaluatePod(restricted, {}, s).find((v) => v.reason === 'unrestricted capabilities');
  assert.equal(unrestricted?.detail, 'container "a" must set securityContext.capabilities.drop=["ALL"]; containers "a", "b" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add');
});

test('a pinned version evaluates the checks as they stood then', () => {
  const sysctls = spec({ securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem', value: '1' }, { name: 'net.ipv4.tcp_keepalive_time', value: '1' }] } });
  assert.equal(message({ level: 'baseline', version: 28 }, sysctls), 'forbidden sysctls (net.ipv4.tcp_rmem, net.ipv4.tcp_keepalive_time)');
  assert.equal(message({ level: 'baseline', version: 31 }, sysctls), 'forbidden sysctls (net.ipv4.tcp_rmem)');
  assert.equal(message({ level: 'baseline', version: 99 }, sysctls), '');
  const probeHost = spec({ containers: [container('c', { startupProbe: { httpGet: { port: 80, host: 'h' } } })] });
  assert.equal(message({ level: 'baseline', version: 33 }, probeHost), '');
  assert.equal(message({ level: 'baseline', version: 34 }, probeHost), 'probe or lifecycle host (container "c" uses probe or lifecycle host "h")');
  const engine = spec({ securityContext: { seLinuxOptions: { type: 'container_engine_t' } } });
  assert.equal(message({ level: 'baseline', version: 30 }, engine), 'seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "container_engine_t")');
  assert.equal(message({ level: 'baseline', version: 31 }, engine), '');
  // Before 1.19 the seccomp check read the alpha annotations; before 1.22 restricted kept baseline's capability check.
  assert.equal(message({ level: 'baseline', version: 18 }, spec({}), { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }), 'seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")');
  assert.equal(message({ level: 'restricted', version: 20 }, spec({ containers: [container('c', { securityContext: { allowPrivilegeEscalation: false, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, capabilities: { add: ['SYS_ADMIN'] } } })] })), 'non-default capabilities (container "c" must not include "SYS_ADMIN" in securityContext.capabilities.add)');
  // User namespaces spare the procMount and run-as checks only from 1.35.
  assert.equal(message({ level: 'restricted', version: 34 }, spec({ hostUsers: false, securityContext: { runAsUser: 0 }, containers: [restrictedContainer] })), 'runAsUser=0 (pod must not set runAsUser=0)');
});
