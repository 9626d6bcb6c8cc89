// `kubectl exec` and `attach` into simulated containers, as a user checks what a pod got: its
// environment, the MIG slice its claim was allocated (nvidia-smi -L), a script's output and exit code,
// a shell fed on standard input, a container's output as it comes, `kubectl run -i` of a shell, and
// upstream's refusals (a container that is not running, a role with `get pods/exec` but not `create`);
// and the files the kubelet wrote into a container (volumes, /etc/hosts), read with cat and kubectl cp,
// and kubectl cp into its emptyDir and its writable layer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import WebSocket from 'ws';
import { kubectlBinary, readKubeconfigToken, startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');

async function waitFor(dd: Drydock, args: readonly string[], want: string): Promise<void> {
  let got = '';
  for (let i = 0; i < 100 && got !== want; i++) {
    got = (await dd.kubectl(args)).stdout.trim();
    if (got !== want) await new Promise((res) => globalThis.setTimeout(res, 100));
  }
  assert.equal(got, want, args.join(' '));
}

describe('kubectl exec into simulated containers', () => {
  let dd: Drydock;
  before(async () => {
    dd = await startDrydock();
    await dd.ok(['run', 'web', '--image=nginx:1.27', '--env=MODE=fast']);
    await waitFor(dd, ['get', 'pod', 'web', '-o', 'jsonpath={.status.phase}'], 'Running');
  });
  after(async () => {
    await dd?.stop();
  });

  test('env shows the container environment with the kubernetes Service\'s variables; sh -c runs a script (loops, $(...)) and kubectl exits with its code', async () => {
    const kubernetes = ['SERVICE_HOST=10.96.0.1', 'SERVICE_PORT=443', 'SERVICE_PORT_HTTPS=443', 'PORT=tcp://10.96.0.1:443', 'PORT_443_TCP=tcp://10.96.0.1:443', 'PORT_443_TCP_PROTO=tcp', 'PORT_443_TCP_PORT=443', 'PORT_443_TCP_ADDR=10.96.0.1'].map((v) => `KUBERNETES_${v}\n`).join('');
    assert.equal(await dd.ok(['exec', 'web', '--', 'env']), `PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\nHOSTNAME=web\nMODE=fast\n${kubernetes}HOME=/root\n`);
    const r = await dd.kubectl(['exec', 'web', '--', 'sh', '-c', 'echo "mode $MODE on $(hostname)"; echo "mode $MODE" && printenv NOPE || exit 3']);
    assert.deepEqual([r.stdout, r.code], ['mode fast on web\nmode fast\n', 3], r.stderr);
    assert.equal(await dd.ok(['exec', 'web', '--', 'sh', '-c', 'for i in 1 2 3; do echo $i; done']), '1\n2\n3\n');
    assert.equal(await dd.ok(['exec', 'web', '--', 'sh', '-c', 'env | grep MODE; env | grep -c NOPE || echo "grep exits $?"']), 'MODE=fast\n0\ngrep exits 1\n');
    assert.equal(await dd.ok(['exec', 'web', '--', 'bash', '-c', 'items=(foo bar); echo ${items[1]} ${#items[@]} | rev']), '2 rab\n');
    const array = await dd.kubectl(['exec', 'web', '--', 'sh', '-c', 'items=(foo bar)']);
    assert.deepEqual([array.stderr, array.code], ['sh: syntax error: unexpected "("\ncommand terminated with exit code 2\n', 2], 'sh is busybox ash here, which has no arrays');
    const script = await dd.kubectl(['exec', 'web', '--', 'sh', '-c', 'echo "mode $MODE"; printenv NOPE || exit 3']);
    assert.equal(script.stdout, 'mode fast\n');
    assert.equal(script.code, 3);
    assert.match(script.stderr, /^command terminated with exit code 3$/m);
  });

  test('the environment is the one the container started with: a ConfigMap changed later does not reach it', async () => {
    await dd.ok(['create', 'configmap', 'settings', '--from-literal=MODE=fast']);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'configured' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', envFrom: [{ configMapRef: { name: 'settings' } }] }] } };
    await dd.ok(['apply', '-f', '-'], { input: JSON.stringify(pod) });
    await waitFor(dd, ['get', 'pod', 'configured', '-o', 'jsonpath={.status.phase}'], 'Running');
    await dd.ok(['patch', 'configmap', 'settings', '-p', '{"data":{"MODE":"slow"}}']);
    assert.equal(await dd.ok(['exec', 'configured', '--', 'printenv', 'MODE']), 'fast\n');
  });

  test('a shell reads commands from standard input (-i)', async () => {
    const r = await dd.kubectl(['exec', '-i', 'web', '--', 'sh'], { input: 'echo one\nfalse\necho status $?\nexit 4\necho never\n' });
    assert.equal(r.stdout, 'one\nstatus 1\n');
    assert.equal(r.code, 4);
  });

  test('a terminal (-t): what is typed is echoed, DEL erases, lines end in CR LF, exit ends the session', async () => {
    // As kubectl -it sends it (raw mode): stream 0 carries keystrokes; the answer's streams come back tagged.
    const url = `${dd.url.replace('https', 'wss')}/api/v1/namespaces/default/pods/web/exec?command=sh&stdin=true&stdout=true&tty=true`;
    const ws = new WebSocket(url, ['v5.channel.k8s.io'], { headers: { Authorization: `Bearer ${readKubeconfigToken(dd.kubeconfig)}` }, rejectUnauthorized: false });
    const received: Buffer[] = [];
    ws.on('message', (data: Buffer) => received.push(data));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const type = (text: string): void => ws.send(Buffer.concat([Buffer.from([0]), Buffer.from(text)]));
    type('echo $HOSTNAME\r');
    type('ex\x7fxit 3\r');
    await new Promise((resolve) => ws.once('close', resolve));
    const stream = (n: number): string => received.filter((m) => m[0] === n).map((m) => m.subarray(1).toString()).join('');
    assert.equal(stream(1), '# echo $HOSTNAME\r\nweb\r\n# ex\b \bxit 3\r\n');
    assert.equal(JSON.parse(stream(3)).details.causes[0].message, '3');
  });

  test('kubectl before 1.30 execs over SPDY: output, exit code, a shell on standard input, and a host of its own', async () => {
    for (const version of ['1.27', '1.29']) {
      const binary = join(dirname(kubectlBinary()), `kubectl.${version}`);
      const script = await dd.kubectl(['exec', 'web', '--', 'sh', '-c', 'echo "mode $MODE"; printenv NOPE || exit 3'], { binary });
      assert.deepEqual([script.stdout, script.code], ['mode fast\n', 3], `${version}: ${script.stderr}`);
      assert.match(script.stderr, /^command terminated with exit code 3$/m);
      const shell = await dd.kubectl(['exec', '-i', 'web', '--', 'sh'], { input: 'echo one\nhostname\nexit 4\n', binary });
      assert.deepEqual([shell.stdout, shell.code], ['one\nweb\n', 4], version);
    }
  });

  test('a command the simulation does not know is the runtime\'s internal error', async () => {
    const r = await dd.kubectl(['exec', 'web', '--', 'python', 'train.py']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: Internal error occurred: error executing command in container: failed to exec in container: "python" is not simulated: /m);
  });

  test('nvidia-smi -L lists the MIG slice the pod\'s claim was allocated', async () => {
    await dd.ok(['apply', '-f', join(fixtures, 'dra/mig-1g-10gb-class.yaml'), '-f', join(fixtures, 'dra/mig-claim.yaml')]);
    await waitFor(dd, ['get', 'pod', 'mig-pod', '-o', 'jsonpath={.status.phase}'], 'Running');
    const device = await dd.ok(['get', 'resourceclaim', 'mig-slice', '-o', 'jsonpath={.status.allocation.devices.results[0].device}']);
    const listing = await dd.ok(['exec', 'mig-pod', '--', 'nvidia-smi', '-L']);
    assert.match(listing, /^GPU \d: NVIDIA H100 80GB HBM3 \(UUID: GPU-[0-9a-f-]+\)\n {2}MIG 1g\.10gb +Device +\d: \(UUID: MIG-[0-9a-f-]+\)\n$/);
    const visible = (await dd.ok(['exec', 'mig-pod', '--', 'printenv', 'NVIDIA_VISIBLE_DEVICES'])).trim();
    assert.ok(listing.includes(`(UUID: ${visible})`), `${visible} in ${listing}`);
    // The slice the driver published for the pod's node names the allocated MIG device's GPU.
    const node = await dd.ok(['get', 'pod', 'mig-pod', '-o', 'jsonpath={.spec.nodeName}']);
    const parent = await dd.ok(['get', 'resourceslices', '--field-selector', `spec.nodeName=${node}`, '-o', `jsonpath={.items[*].spec.devices[?(@.name=="${device}")].attributes.parentUUID.string}`]);
    assert.ok(listing.startsWith(`GPU 0: NVIDIA H100 80GB HBM3 (UUID: ${parent})\n`), `${parent} in ${listing}`);
  });

  // It runs 6 s: on a loaded machine kubectl takes seconds to attach, and a container gone by then has nothing to stream.
  test('kubectl attach streams a container\'s output until it exits', async () => {
    await dd.ok(['run', 'ticker', '--image=busybox', '--restart=Never', '--annotations=sim.drydock.dev/ticker=logEvery: 300ms\nrunFor: 6s', '--', 'sleep', '3600']);
    await waitFor(dd, ['get', 'pod', 'ticker', '-o', 'jsonpath={.status.phase}'], 'Running');
    const r = await dd.kubectl(['attach', 'ticker']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^(tick \d+\n)+$/);
    assert.equal(await dd.ok(['get', 'pod', 'ticker', '-o', 'jsonpath={.status.phase}']), 'Succeeded');
  });

  test('kubectl run -i: the shell reads the attached input, and its exit ends the container', async () => {
    const r = await dd.kubectl(['run', 'shell', '-i', '--image=busybox', '--restart=Never', '--', 'sh'], { input: 'echo inside $HOSTNAME\nexit 3\n', timeoutMs: 20_000 });
    assert.match(r.stdout, /^inside shell$/m);
    await waitFor(dd, ['get', 'pod', 'shell', '-o', 'jsonpath={.status.containerStatuses[0].state.terminated.exitCode}'], '3');
  });

  test('what runs in a container is killed when it stops: kubectl exec ends with 137', async () => {
    await dd.ok(['run', 'victim', '--image=nginx:1.27']);
    await waitFor(dd, ['get', 'pod', 'victim', '-o', 'jsonpath={.status.phase}'], 'Running');
    // The pod is deleted once the command has said it runs: on a loaded machine kubectl exec alone took
    // up to a second to connect, and a deletion before that finds no container to kill the command in.
    const exec = dd.spawnKubectl(['exec', 'victim', '--', 'sh', '-c', 'echo running; sleep 60']);
    let stdout = '';
    let stderr = '';
    exec.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const running = new Promise<void>((res) => exec.stdout?.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('running\n')) res();
    }));
    const code = new Promise<number | null>((res) => exec.once('close', res));
    await Promise.race([running, code]);
    await dd.ok(['delete', 'pod', 'victim', '--wait=false']);
    let timer: ReturnType<typeof globalThis.setTimeout> | undefined;
    const ended = await Promise.race([code, new Promise<string>((res) => (timer = globalThis.setTimeout(() => res('still running'), 30_000)))]);
    globalThis.clearTimeout(timer);
    exec.kill();
    assert.equal(ended, 137, stderr);
    assert.match(stderr, /^command terminated with exit code 137$/m);
  });

  test('a container that is not running cannot be exec\'d into', async () => {
    await dd.ok(['run', 'crash', '--image=busybox', '--', 'sh', '-c', 'exit 1']);
    await waitFor(dd, ['get', 'pod', 'crash', '-o', 'jsonpath={.status.containerStatuses[0].lastState.terminated.exitCode}'], '1');
    let r = await dd.kubectl(['exec', 'crash', '--', 'env']);
    for (let i = 0; i < 20 && !r.stderr.includes('container not found'); i++) r = await dd.kubectl(['exec', 'crash', '--', 'env']);
    assert.equal(r.stderr.trim(), 'error: unable to upgrade connection: container not found ("crash")');
  });

  test('the WebSocket upgrade needs create pods/exec besides get (1.35)', async () => {
    await dd.ok(['create', 'role', 'exec-get', '--verb=get', '--resource=pods,pods/exec']);
    await dd.ok(['create', 'rolebinding', 'exec-get', '--role=exec-get', '--user=dev']);
    const refused = await dd.kubectl(['exec', 'web', '--as=dev', '--', 'hostname']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /pods "web" is forbidden/);
    await dd.ok(['create', 'role', 'exec-create', '--verb=create', '--resource=pods/exec']);
    await dd.ok(['create', 'rolebinding', 'exec-create', '--role=exec-create', '--user=dev']);
    assert.equal(await dd.ok(['exec', 'web', '--as=dev', '--', 'hostname']), 'web\n');
  });

  test('a pod\'s files are what the kubelet wrote: its ConfigMap, Secret and downward API volumes, /etc/hosts, its service account token', async () => {
    await dd.ok(['apply', '-f', join(fixtures, 'volumes/pod-with-files.yaml')]);
    await waitFor(dd, ['get', 'pod', 'files', '-o', 'jsonpath={.status.phase}'], 'Running');
    assert.equal(await dd.ok(['exec', 'files', '--', 'cat', '/etc/config/app.yaml', '/app/mode.txt', '/secrets/token']), 'model: llama-3-8b\nbatch: 8\nfasthf_abc123');
    // PodTopologyLabels gave the pod its node's zone and region labels when it was bound.
    assert.equal(
      await dd.ok(['exec', 'files', '--', 'cat', '/etc/podinfo/labels', '/etc/podinfo/ns/name']),
      'app="serve"\ntier="gpu"\ntopology.kubernetes.io/region="drydock"\ntopology.kubernetes.io/zone="drydock-a"default',
    );
    const node = await dd.ok(['get', 'pod', 'files', '-o', 'jsonpath={.spec.nodeName}']);
    const allocatable = await dd.ok(['get', 'node', node, '-o', 'jsonpath={.status.allocatable.memory}']);
    assert.equal(`${await dd.ok(['exec', 'files', '--', 'cat', '/etc/podinfo/memory_limit'])}Mi`, allocatable, 'a limit not set is the node\'s allocatable');
    assert.equal(await dd.ok(['exec', 'files', '--', 'printenv', 'CPU_LIMIT', 'MEMORY_REQUEST_MI']), '2\n1024\n');
    const ip = await dd.ok(['get', 'pod', 'files', '-o', 'jsonpath={.status.podIP}']);
    const hosts = await dd.ok(['exec', 'files', '--', 'cat', '/etc/hosts']);
    assert.ok(hosts.startsWith('# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n'), hosts);
    assert.ok(hosts.endsWith(`\n${ip}\tfiles\n\n# Entries added by HostAliases.\n10.1.2.3\tregistry.local\tmirror.local\n`), hosts);
    const listing = await dd.ok(['exec', 'files', '--', 'ls', '-a', '/etc/config']);
    assert.match(listing, /^\.\n\.\.\n\.\.\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d\.\d+\n\.\.data\napp\.yaml\nblob\nmode\n$/);
    const unknown = await dd.kubectl(['exec', 'files', '--', 'cat', '/etc/passwd']);
    assert.deepEqual([unknown.code, unknown.stderr.split('\n')[0]], [1, "cat: /etc/passwd: not simulated: a simulated container's files are its volumes', /etc/hosts, /etc/hostname, /etc/resolv.conf and what was copied into it"]);
    // The token the pod's projected volume holds authenticates as the pod's service account.
    const token = await dd.ok(['exec', 'files', '--', 'cat', '/var/run/secrets/kubernetes.io/serviceaccount/token']);
    assert.match(await dd.ok(['auth', 'whoami', `--token=${token}`, '-o', 'jsonpath={.status.userInfo.username}']), /^system:serviceaccount:default:default$/);
    // A changed ConfigMap reaches the mounted files only at the pod's next sync, a minute from its start
    // (src/kubelet/lifecycle.test.ts follows it there on a virtual clock).
    await dd.ok(['patch', 'configmap', 'app-config', '-p', '{"data":{"mode":"slow"}}']);
    assert.equal(await dd.ok(['exec', 'files', '--', 'cat', '/etc/config/mode']), 'fast');
  });

  test("kubernetes.io's downward API volume example: its script's [[ -e ]] finds the files and kubectl logs shows the pod's labels and annotations", async () => {
    await dd.ok(['apply', '-f', join(fixtures, 'dapi-volume.yaml')]);
    let logs = '';
    for (let i = 0; i < 100 && !logs.includes('builder'); i++) {
      logs = (await dd.kubectl(['logs', 'kubernetes-downwardapi-volume-example'])).stdout;
      if (!logs.includes('builder')) await new Promise((res) => globalThis.setTimeout(res, 100));
    }
    const labels = 'cluster="test-cluster1"\nrack="rack-22"\ntopology.kubernetes.io/region="drydock"\ntopology.kubernetes.io/zone="drydock-a"\nzone="us-est-coast"';
    assert.ok(logs.startsWith(`\n\n${labels}\n\nbuild="two"\nbuilder="john-doe"`), logs);
  });

  test("kubernetes.io's command-demo: printenv's output is the container's log, and the pod Completes", async () => {
    await dd.ok(['apply', '-f', join(fixtures, 'commands.yaml')]);
    await waitFor(dd, ['get', 'pod', 'command-demo', '-o', 'jsonpath={.status.phase}'], 'Succeeded');
    assert.equal(await dd.ok(['logs', 'command-demo']), 'command-demo\ntcp://10.96.0.1:443\n');
  });

  test('kubectl cp copies a file and a directory out of a pod; the atomic writer\'s links are skipped, as kubectl skips them', async () => {
    await dd.ok(['apply', '-f', join(fixtures, 'volumes/pod-with-files.yaml')]);
    await waitFor(dd, ['get', 'pod', 'files', '-o', 'jsonpath={.status.phase}'], 'Running');
    const warning = "tar: Removing leading `/' from member names\n";
    // kubectl exec prints a stream's last byte before it exits; kubectl cp returns once tar's end-of-archive
    // is read (cp.go untarAll) without waiting for the exec's stderr copy, which may not have printed yet.
    const tar = await dd.kubectl(['exec', 'files', '--', 'tar', 'cf', '-', '/secrets/token']);
    assert.deepEqual([tar.code, tar.stderr], [0, warning]);
    const file = await dd.kubectl(['cp', 'files:/secrets/token', join(dd.dir, 'token')]);
    assert.equal(file.code, 0, file.stderr);
    assert.ok(file.stdout === warning || file.stdout === '', `kubectl cp prints tar's stderr on its stdout, if in time: ${file.stdout}`);
    assert.equal(readFileSync(join(dd.dir, 'token'), 'utf8'), 'hf_abc123');
    const dir = await dd.kubectl(['cp', 'files:/etc/config', join(dd.dir, 'config')]);
    assert.equal(dir.code, 0, dir.stderr);
    assert.match(dir.stderr, /^warning: skipping symlink: ".*\/config\/\.\.data" -> "\.\.\d{4}_[\d_.]+"/m);
    const [written] = readdirSync(join(dd.dir, 'config'));
    assert.deepEqual(readdirSync(join(dd.dir, 'config', written ?? '')).sort(), ['app.yaml', 'blob', 'mode']);
    assert.deepEqual([...readFileSync(join(dd.dir, 'config', written ?? '', 'blob'))], [0, 1, 2, 255]);
  });

  test('kubectl cp into a pod writes into its emptyDir, where exec and kubectl cp find it; a ConfigMap\'s volume is read-only', async () => {
    await dd.ok(['apply', '-f', join(fixtures, 'volumes/pod-with-files.yaml')]);
    await waitFor(dd, ['get', 'pod', 'files', '-o', 'jsonpath={.status.phase}'], 'Running');
    const manifest = readFileSync(join(fixtures, 'pod.yaml'), 'utf8');
    const into = await dd.kubectl(['cp', join(fixtures, 'pod.yaml'), 'files:/scratch/pod.yaml']);
    assert.equal(into.code, 0, into.stderr);
    const toDir = await dd.kubectl(['cp', join(fixtures, 'pod.yaml'), 'files:/scratch/']);
    assert.equal(toDir.code, 0, `test -d finds the directory: ${toDir.stderr}`);
    assert.equal(await dd.ok(['exec', 'files', '--', 'ls', '/scratch']), 'pod.yaml\n');
    assert.equal(await dd.ok(['exec', 'files', '--', 'cat', '/scratch/pod.yaml']), manifest);
    const back = await dd.kubectl(['cp', 'files:/scratch/pod.yaml', join(dd.dir, 'round-trip.yaml')]);
    assert.equal(back.code, 0, back.stderr);
    assert.equal(readFileSync(join(dd.dir, 'round-trip.yaml'), 'utf8'), manifest);
    const readOnly = await dd.kubectl(['cp', join(fixtures, 'pod.yaml'), 'files:/etc/config/pod.yaml']);
    assert.equal(readOnly.code, 2, 'kubectl exits with tar\'s status');
    assert.match(readOnly.stderr, /^tar: pod\.yaml: Cannot open: Read-only file system$/m);
    // Outside the volumes it goes to the container's writable layer, over the image's /tmp.
    const layer = await dd.kubectl(['cp', join(fixtures, 'pod.yaml'), 'files:/tmp/pod.yaml']);
    assert.equal(layer.code, 0, layer.stderr);
    assert.equal(await dd.ok(['exec', 'files', '--', 'cat', '/tmp/pod.yaml']), manifest);
    // The image's /tmp is a directory, so a copy to it keeps the file's name.
    const toImageDir = await dd.kubectl(['cp', join(fixtures, 'resize-pod.yaml'), 'files:/tmp']);
    assert.equal(toImageDir.code, 0, toImageDir.stderr);
    assert.equal(await dd.ok(['exec', 'files', '--', 'ls', '/tmp']), 'pod.yaml\nresize-pod.yaml\n');
  });
});
