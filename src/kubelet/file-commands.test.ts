import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Pod } from '../api/index.ts';
import { containerFiles, podHostnameError, podKernelHostname } from './container-files.ts';
import type { FileNode } from './container-files.ts';
import { volumeSources } from './volume-sources.test-helpers.ts';
import { runExec } from './exec-shell.ts';
import type { ExecRun } from './exec-shell.ts';
import { execText } from './exec-text.test-helpers.ts';

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'files', namespace: 'ml', uid: 'uid-1', labels: { tier: 'gpu', app: 'serve' }, annotations: { owner: 'team "ml"' } },
  spec: {
    hostAliases: [{ ip: '10.1.2.3', hostnames: ['registry.local', 'mirror.local'] }],
    containers: [
      {
        name: 'app',
        image: 'nginx',
        volumeMounts: [
          { name: 'config', mountPath: '/etc/config' },
          { name: 'token', mountPath: '/secrets/' },
          { name: 'podinfo', mountPath: '/etc/podinfo' },
          { name: 'scratch', mountPath: '/scratch' },
          { name: 'config', mountPath: '/app/mode.txt', subPath: 'mode' },
          { name: 'api', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
          { name: 'data', mountPath: '/data' },
        ],
      },
    ],
    volumes: [
      { name: 'config', configMap: { name: 'app-config' } },
      { name: 'token', secret: { secretName: 'hf-token', defaultMode: 0o400, items: [{ key: 'token', path: 'hf/token' }, { key: 'gone', path: 'gone' }] } },
      { name: 'podinfo', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }, { path: 'annotations', fieldRef: { fieldPath: 'metadata.annotations' } }, { path: 'app', fieldRef: { fieldPath: "metadata.labels['app']" }, mode: 0o600 }, { path: 'cpu_limit', resourceFieldRef: { containerName: 'app', resource: 'limits.cpu', divisor: '1m' } }] } },
      { name: 'scratch', emptyDir: {} },
      { name: 'api', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }, { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } }] } },
      { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
    ],
  },
};

const sources = volumeSources({
  configMap: (namespace, name) =>
    namespace !== 'ml' ? undefined : name === 'app-config' ? { data: { 'app.yaml': 'model: llama\n', mode: 'fast' }, binaryData: { blob: 'AAEC/w==' } } : name === 'kube-root-ca.crt' ? { data: { 'ca.crt': 'PEM\n' } } : undefined,
  secret: (namespace, name) => (namespace === 'ml' && name === 'hf-token' ? { data: { token: Buffer.from('hf_abc').toString('base64') } } : undefined),
  token: (volume, path) => (volume === 'api' && path === 'token' ? 'eyJ.token' : undefined),
  dataDirectory: () => '..2026_12_06_19_08_52.123',
  allocatable: { cpu: '7800m', memory: '30Gi' },
});

const files = containerFiles(pod, pod.spec.containers[0]!, ['10.128.0.7'], sources, Date.UTC(2026, 11, 6, 19, 8, 52));
const context = { env: {}, gpuList: undefined, workingDir: '/etc', files };
const out = (run: ExecRun, stream: 'stdout' | 'stderr' = 'stdout'): string => execText(run, stream);

test('/etc/hosts is the kubelet\'s managed file: the pod\'s IP and name, then its hostAliases; /etc/hostname the runtime\'s', () => {
  const hosts = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';
  assert.equal(out(runExec(['cat', '/etc/hosts'], context)), `${hosts}10.128.0.7\tfiles\n\n# Entries added by HostAliases.\n10.1.2.3\tregistry.local\tmirror.local\n`);
  assert.equal(out(runExec(['cat', 'hostname'], context)), 'files\n', 'relative to the working directory');
  const log = runExec(['cat', '/dev/termination-log'], context);
  assert.deepEqual([out(log), log.exitCode], ['', 0], 'the termination log the kubelet mounts, empty');
  const named: Pod = { ...pod, spec: { ...pod.spec, hostname: 'worker-0', subdomain: 'trainers', hostAliases: [] } };
  const fqdnHost = containerFiles({ ...named, spec: { ...named.spec, setHostnameAsFQDN: true } }, named.spec.containers[0]!, ['10.128.0.7'], sources, 0);
  assert.equal(out(runExec(['cat', '/etc/hostname'], { ...context, files: fqdnHost })), 'worker-0.trainers.ml.svc.cluster.local\n', 'setHostnameAsFQDN');
  const fqdn = containerFiles(named, named.spec.containers[0]!, ['10.128.0.7'], sources, 0);
  assert.equal(out(runExec(['cat', '/etc/hosts', '/etc/hostname'], { ...context, files: fqdn })), `${hosts}10.128.0.7\tworker-0.trainers.ml.svc.cluster.local\tworker-0\nworker-0\n`);
});

test('hostnameOverride (HostnameOverride, on in 1.35) is the pod\'s whole hostname: over hostname and subdomain, with no domain in /etc/hosts', () => {
  const hosts = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';
  const overridden: Pod = { ...pod, spec: { ...pod.spec, hostname: 'worker-0', subdomain: 'trainers', hostnameOverride: 'trainer.ml.example.com', hostAliases: [] } };
  const files = containerFiles(overridden, overridden.spec.containers[0]!, ['10.128.0.7'], sources, 0);
  assert.equal(out(runExec(['cat', '/etc/hosts', '/etc/hostname'], { ...context, files })), `${hosts}10.128.0.7\ttrainer.ml.example.com\ntrainer.ml.example.com\n`);
  assert.equal(podKernelHostname(overridden), 'trainer.ml.example.com', 'what HOSTNAME and `hostname` give');
  assert.equal(podHostnameError(overridden), undefined);
  // GeneratePodHostNameAndDomain refuses what is no DNS subdomain; the container is not created.
  assert.equal(
    podHostnameError({ ...pod, spec: { ...pod.spec, hostnameOverride: 'Trainer_0' } }),
    `pod HostnameOverride "Trainer_0" is not a valid DNS subdomain: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  );
});

test('volumes hold what their plugins write: keys as files, secrets decoded, the downward API formatted, a subPath alone', () => {
  assert.equal(out(runExec(['cat', '/etc/config/app.yaml', '/etc/config/mode', '/app/mode.txt', '/secrets/hf/token'], context)), 'model: llama\nfastfasthf_abc');
  assert.deepEqual([...(runExec(['cat', '/etc/config/blob'], context).steps[0] as { text: Buffer }).text], [0, 1, 2, 255], 'binaryData as its bytes');
  assert.equal(out(runExec(['cat', '/etc/podinfo/labels', '/etc/podinfo/annotations', '/etc/podinfo/app'], context)), 'app="serve"\ntier="gpu"owner="team \\"ml\\""serve');
  assert.equal(out(runExec(['cat', '/etc/podinfo/cpu_limit'], context)), '7800', 'no limit set: the node\'s allocatable, in millicores');
  assert.equal(out(runExec(['sh', '-c', 'cat /var/run/secrets/kubernetes.io/serviceaccount/namespace; echo; cat ../var/run/secrets/kubernetes.io/serviceaccount/token'], context)), 'ml\neyJ.token');
});

test('ls shows the atomic writer\'s layout with -a, files before directories, and errors in GNU words', () => {
  assert.equal(out(runExec(['ls', '/etc/config'], context)), 'app.yaml\nblob\nmode\n');
  assert.equal(out(runExec(['ls', '-a', '/etc/config'], context)), '.\n..\n..2026_12_06_19_08_52.123\n..data\napp.yaml\nblob\nmode\n');
  assert.equal(out(runExec(['ls', '-A', '/etc/config/..data'], context)), 'app.yaml\nblob\nmode\n');
  assert.equal(out(runExec(['ls', '/scratch', '/etc/hosts', '/secrets'], context)), '/etc/hosts\n\n/scratch:\n\n/secrets:\nhf\n');
  const missing = runExec(['ls', '/etc/config/nope', '/etc/config/mode/x'], context);
  assert.equal(out(missing, 'stderr'), "ls: cannot access '/etc/config/nope': No such file or directory\nls: cannot access '/etc/config/mode/x': Not a directory\n");
  assert.equal(missing.exitCode, 2);
  assert.match(out(runExec(['ls', '-d', '/etc/config'], context), 'stderr'), /^ls: option -d is not simulated/);
});

test('what the kubelet did not write is unknown, not missing: the image\'s files, a disk\'s', () => {
  for (const path of ['/etc/passwd', '/data/model.bin', '/etc']) {
    const run = runExec(['cat', path], context);
    assert.equal(out(run, 'stderr'), `cat: ${path}: not simulated: a simulated container's files are its volumes', /etc/hosts, /etc/hostname, /etc/resolv.conf and what was copied into it\n`);
    assert.equal(run.exitCode, 1);
  }
  assert.equal(out(runExec(['cat', '/scratch'], context), 'stderr'), 'cat: /scratch: Is a directory\n');
  assert.equal(out(runExec(['cat', '/secrets/gone'], context), 'stderr'), 'cat: /secrets/gone: No such file or directory\n', 'an optional item whose key is missing');
});

test('tar cf - writes an archive GNU tar reads back: directories, files with their modes, links as links', () => {
  const run = runExec(['tar', 'cf', '-', '/etc/config', '/secrets/hf/token', 'hosts'], context);
  assert.equal(out(run, 'stderr'), "tar: Removing leading `/' from member names\n");
  assert.equal(run.exitCode, 0);
  const archive = Buffer.concat(run.steps.flatMap((s) => ('stream' in s && s.stream === 'stdout' ? [Buffer.from(s.text)] : [])));
  assert.equal(archive.length % 10240, 0);
  const listing = spawnSync('tar', ['tvf', '-', '--utc'], { input: archive, encoding: 'utf8' });
  assert.equal(listing.status, 0, listing.stderr);
  assert.deepEqual(
    listing.stdout.trim().split('\n').map((l) => l.replace(/ +/g, ' ')),
    [
      'drwxrwxrwt root/root 0 2026-12-06 19:08 etc/config/',
      'drwxr-xr-x root/root 0 2026-12-06 19:08 etc/config/..2026_12_06_19_08_52.123/',
      '-rw-r--r-- root/root 13 2026-12-06 19:08 etc/config/..2026_12_06_19_08_52.123/app.yaml',
      '-rw-r--r-- root/root 4 2026-12-06 19:08 etc/config/..2026_12_06_19_08_52.123/blob',
      '-rw-r--r-- root/root 4 2026-12-06 19:08 etc/config/..2026_12_06_19_08_52.123/mode',
      'lrwxrwxrwx root/root 0 2026-12-06 19:08 etc/config/..data -> ..2026_12_06_19_08_52.123',
      'lrwxrwxrwx root/root 0 2026-12-06 19:08 etc/config/app.yaml -> ..data/app.yaml',
      'lrwxrwxrwx root/root 0 2026-12-06 19:08 etc/config/blob -> ..data/blob',
      'lrwxrwxrwx root/root 0 2026-12-06 19:08 etc/config/mode -> ..data/mode',
      '-r-------- root/root 6 2026-12-06 19:08 secrets/hf/token',
      '-rw-r--r-- root/root 270 2026-12-06 19:08 hosts',
    ],
  );
  const token = spawnSync('tar', ['xOf', '-', 'secrets/hf/token'], { input: archive, encoding: 'utf8' });
  assert.equal(token.stdout, 'hf_abc');
});

test('tar reports what it cannot archive after the rest; a script cannot feed tar x', () => {
  const run = runExec(['tar', 'cf', '-', '/nope/x', '/etc/config/none'], context);
  assert.equal(out(run, 'stderr'), "tar: /nope/x: not simulated: a simulated container's files are its volumes', /etc/hosts, /etc/hostname, /etc/resolv.conf and what was copied into it\ntar: /etc/config/none: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n");
  assert.equal(run.exitCode, 2);
  const scripted = runExec(['sh', '-c', 'tar -xmf - -C /scratch'], context);
  assert.equal(out(scripted, 'stderr'), 'tar: reading an archive from standard input is not simulated in a shell script\n', 'a script has no standard input to give');
  assert.equal(scripted.exitCode, 2);
});

test('tar xf - (kubectl cp into a pod) unpacks GNU tar\'s archive into an emptyDir, where cat, ls and tar cf find it; elsewhere it is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-tar-'));
  try {
    mkdirSync(join(dir, 'weights'));
    writeFileSync(join(dir, 'weights', 'adapter.bin'), Buffer.from([0, 1, 2, 254, 255]));
    writeFileSync(join(dir, 'prompt.txt'), 'You are a helpful assistant.\n');
    const archive = spawnSync('tar', ['cf', '-', '-C', dir, 'prompt.txt', 'weights'], { maxBuffer: 1 << 20 }).stdout;
    const run = runExec(['tar', '--no-same-permissions', '--no-same-owner', '-xmf', '-', '-C', '/scratch'], context, archive);
    assert.deepEqual([out(run, 'stderr'), run.exitCode], ['', 0]);
    const later = { ...context, files: containerFiles(pod, pod.spec.containers[0]!, ['10.128.0.7'], sources, 0) };
    assert.equal(out(runExec(['cat', '/scratch/prompt.txt'], later)), 'You are a helpful assistant.\n', 'it stays for the next exec');
    assert.deepEqual([...(runExec(['cat', '/scratch/weights/adapter.bin'], later).steps[0] as { text: Buffer }).text], [0, 1, 2, 254, 255]);
    assert.equal(out(runExec(['ls', '/scratch', '/scratch/weights'], later)), '/scratch:\nprompt.txt\nweights\n\n/scratch/weights:\nadapter.bin\n');
    const back = Buffer.concat(runExec(['tar', 'cf', '-', '/scratch/weights'], later).steps.flatMap((x) => ('stream' in x && x.stream === 'stdout' ? [Buffer.from(x.text)] : [])));
    assert.equal(spawnSync('tar', ['tf', '-'], { input: back, encoding: 'utf8' }).stdout, 'scratch/weights/\nscratch/weights/adapter.bin\n');
    const readOnly = runExec(['tar', '-xmf', '-', '-C', '/etc/config'], later, archive);
    assert.equal(out(readOnly, 'stderr'), 'tar: prompt.txt: Cannot open: Read-only file system\ntar: weights: Cannot mkdir: Read-only file system\ntar: weights/adapter.bin: Cannot mkdir: Read-only file system\ntar: Exiting with failure status due to previous errors\n');
    assert.equal(readOnly.exitCode, 2);
    const unknown = runExec(['tar', '-xmf', '-', '-C', '/tmp'], later, archive);
    assert.equal(out(unknown, 'stderr'), "tar: /tmp: Cannot open: not simulated: a simulated container's files are its volumes', /etc/hosts, /etc/hostname, /etc/resolv.conf and what was copied into it\ntar: Error is not recoverable: exiting now\n");
    assert.equal(out(runExec(['tar', '-xmf', '-', '-C', '/scratch'], later, Buffer.from('not an archive'.padEnd(600, '!'))), 'stderr'), 'tar: This does not look like a tar archive\ntar: Error is not recoverable: exiting now\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("tar xf - outside the volumes writes the container's writable layer: the image's directories are taken to exist, their other files stay unknown; a read-only root filesystem refuses", () => {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-tar-'));
  try {
    writeFileSync(join(dir, 'lora.json'), '{"r": 8}\n');
    const archive = spawnSync('tar', ['cf', '-', '-C', dir, 'lora.json'], { maxBuffer: 1 << 20 }).stdout;
    const layer: Extract<FileNode, { kind: 'dir' }> = { kind: 'dir', entries: new Map(), mode: 0o755, image: true, writable: true };
    const withLayer = { ...context, files: containerFiles(pod, pod.spec.containers[0]!, ['10.128.0.7'], sources, 0, layer) };
    const run = runExec(['tar', '-xmf', '-', '-C', '/models/adapters'], withLayer, archive);
    assert.deepEqual([out(run, 'stderr'), run.exitCode], ['', 0]);
    assert.equal(out(runExec(['cat', '/models/adapters/lora.json'], withLayer)), '{"r": 8}\n');
    assert.equal(out(runExec(['ls', '/models/adapters'], withLayer)), 'lora.json\n');
    assert.equal(runExec(['test', '-f', '/models/adapters/lora.json'], withLayer).exitCode, 0);
    assert.equal(out(runExec(['cat', '/models/base.bin'], withLayer), 'stderr'), `cat: /models/base.bin: not simulated: a simulated container's files are its volumes', /etc/hosts, /etc/hostname, /etc/resolv.conf and what was copied into it\n`, "the image's other files stay unknown");
    assert.equal(out(runExec(['cat', '/etc/hosts'], withLayer)).split('\n')[0], '# Kubernetes-managed hosts file.', 'a mount still wins over the layer');
    const readOnlyLayer: Extract<FileNode, { kind: 'dir' }> = { kind: 'dir', entries: new Map(), mode: 0o755, image: true };
    const readOnly = runExec(['tar', '-xmf', '-', '-C', '/tmp'], { ...context, files: containerFiles(pod, pod.spec.containers[0]!, ['10.128.0.7'], sources, 0, readOnlyLayer) }, archive);
    assert.deepEqual([out(readOnly, 'stderr'), readOnly.exitCode], ['tar: lora.json: Cannot open: Read-only file system\ntar: Exiting with failure status due to previous errors\n', 2]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
