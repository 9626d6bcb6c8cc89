// Image pulls on a simulated node (VirtualClock): a missing image's ErrImagePull and ImagePullBackOff,
// a slow pull's ContainerCreating, pulls one at a time per node, imagePullPolicy Never, and the images
// the Node then lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podStatusCells, refs } from '../api/index.ts';
import type { Event, Node, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { imageSizeBytes, nodeImages } from './images.ts';

async function cluster(): Promise<{ c: Cluster; clock: VirtualClock }> {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '8', memory: '8Gi' } }] });
  return { c: await Cluster.start({ config, clock, random: new SeededRandom(5), components: true }), clock };
}

function pod(name: string, image: string, pull: string, imagePullPolicy?: 'Never'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', annotations: { 'sim.drydock.dev/app': `pull: ${pull}` } },
    spec: { containers: [{ name: 'app', image, ...(imagePullPolicy ? { imagePullPolicy } : {}) }] },
  };
}

async function events(c: Cluster, name: string): Promise<string[]> {
  const list = await c.client.list<Event>(refs.events, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject.name === name && e.source?.component === 'kubelet').map((e) => `${e.type} ${e.reason} ${e.message}`);
}

async function status(c: Cluster, name: string): Promise<string> {
  return podStatusCells(await c.client.get<Pod>(refs.pods, 'default', name)).status;
}

/** The kubelet's Pulled event for a pull of `image` that took `took`. */
function pulled(image: string, took: string): string {
  return `Normal Pulled Successfully pulled image "${image}" in ${took}. Image size: ${imageSizeBytes(image)} bytes.`;
}

test('an image the registry does not have: ErrImagePull, then ImagePullBackOff with the last error, as kubectl shows them', async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  await c.client.create(refs.pods, pod('typo', 'nginx:1.27-typo', 'notFound'));
  const seen: string[] = [];
  const w = c.client.watch<Pod>(refs.pods, { namespace: 'default' }, (e) => {
    if (e.type !== 'ADDED' && e.type !== 'MODIFIED') return;
    const s = podStatusCells(e.object as Pod).status;
    if (seen.at(-1) !== s) seen.push(s);
  });
  for (let s = 0; s < 40; s++) await clock.advance(1_000);
  w.stop();
  // The PLEG's relist syncs the new sandbox 1 s after the first failure, inside the 10 s back-off; the
  // pod worker's retries (10-15 s) then meet the doubling back-off now inside it, now past it.
  assert.deepEqual(seen.slice(0, 5), ['Pending', 'ContainerCreating', 'ErrImagePull', 'ImagePullBackOff', 'ErrImagePull']);
  const error = 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.27-typo": failed to resolve reference "docker.io/library/nginx:1.27-typo": docker.io/library/nginx:1.27-typo: not found';
  const all = await events(c, 'typo');
  for (const e of [
    'Normal Pulling Pulling image "nginx:1.27-typo"',
    `Warning Failed Failed to pull image "nginx:1.27-typo": ${error}`,
    'Warning Failed Error: ErrImagePull',
    'Normal BackOff Back-off pulling image "nginx:1.27-typo"',
    'Warning Failed Error: ImagePullBackOff',
  ]) assert.ok(all.includes(e), `${e}\nin ${all.join('\n')}`);
  const waiting = (await c.client.get<Pod>(refs.pods, 'default', 'typo')).status?.containerStatuses?.[0]?.state?.waiting;
  if (waiting?.reason === 'ImagePullBackOff') assert.equal(waiting.message, `Back-off pulling image "nginx:1.27-typo": ErrImagePull: ${error}`);
  else assert.deepEqual(waiting, { reason: 'ErrImagePull', message: error });
});

test('a slow pull keeps the pod in ContainerCreating, and a node pulls one image at a time', async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  const images = { first: 'vllm/vllm-openai:v0.11.0', second: 'nvcr.io/nvidia/tritonserver:25.01-py3' };
  await c.client.create(refs.pods, pod('first', images.first, '30s'));
  await c.client.create(refs.pods, pod('second', images.second, '30s'));
  await clock.advance(20_000);
  for (const name of ['first', 'second']) assert.equal(await status(c, name), 'ContainerCreating');
  // Which pod's worker asks for its image first is not ordered (upstream's pod workers are goroutines);
  // the node pulls that one while the other waits its turn.
  const [ahead, behind] = await clock.until(async () => {
    if ((await status(c, 'first')) === 'Running') return ['first', 'second'] as const;
    return (await status(c, 'second')) === 'Running' ? (['second', 'first'] as const) : undefined;
  }, 'a pod to run', 1_000, 60);
  assert.equal(await status(c, behind), 'ContainerCreating');
  await clock.until(async () => (await status(c, behind)) === 'Running', `${behind} to run`, 1_000, 60);
  assert.ok((await events(c, ahead)).includes(pulled(images[ahead], '30s (30s including waiting)')), (await events(c, ahead)).join('\n'));
  assert.ok((await events(c, behind)).includes(pulled(images[behind], '30s (1m0s including waiting)')), (await events(c, behind)).join('\n'));

  // The image is on the node now: another pod of it starts at once.
  await c.client.create(refs.pods, pod('third', images.first, '30s'));
  await clock.until(async () => (await status(c, 'third')) === 'Running', 'third to run within a second', 100, 10);
  assert.ok((await events(c, 'third')).includes('Normal Pulled Container image "vllm/vllm-openai:v0.11.0" already present on machine and can be accessed by the pod'));
});

test('imagePullPolicy Never: a loaded image starts without a pull; one the registry does not have is ErrImageNeverPull', async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  await c.client.create(refs.pods, pod('loaded', 'my-model:dev', '1m', 'Never'));
  await c.client.create(refs.pods, pod('missing', 'my-model:typo', 'notFound', 'Never'));
  await clock.advance(2_000);
  assert.equal(await status(c, 'loaded'), 'Running');
  const missing = await c.client.get<Pod>(refs.pods, 'default', 'missing');
  assert.deepEqual(missing.status?.containerStatuses?.[0]?.state?.waiting, { reason: 'ErrImageNeverPull', message: 'Container image "my-model:typo" is not present with pull policy of Never' });
  const all = await events(c, 'missing');
  assert.ok(all.includes('Warning ErrImageNeverPull Container image "my-model:typo" is not present with pull policy of Never'), all.join('\n'));
  assert.ok(all.includes('Warning Failed Error: ErrImageNeverPull'));
});

test('a pod whose image another pull on the node is fetching waits for it, then finds the image there', async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  const image = 'vllm/vllm-openai:v0.11.0';
  await c.client.create(refs.pods, pod('a', image, '30s'));
  await c.client.create(refs.pods, pod('b', image, '30s'));
  await clock.until(async () => (await status(c, 'a')) === 'Running' && (await status(c, 'b')) === 'Running', 'both pods to run', 1_000, 60);
  // Either pod's worker may ask first (upstream's are goroutines): one pulls, the other waits for that pull.
  const pulls = [...(await events(c, 'a')), ...(await events(c, 'b'))].filter((e) => e.startsWith('Normal Pulled ')).sort();
  assert.deepEqual(pulls, [pulled(image, '0s (30s including waiting)'), pulled(image, '30s (30s including waiting)')]);
});

test('a pod naming a pull secret that does not exist gets the kubelet\'s warning, whatever its image needs', async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  await c.client.create(refs.pods, { ...pod('public', 'nginx:1.27', '0s'), spec: { imagePullSecrets: [{ name: 'gone' }], containers: [{ name: 'app', image: 'nginx:1.27' }] } });
  await clock.advance(2_000);
  assert.equal(await status(c, 'public'), 'Running');
  assert.ok((await events(c, 'public')).includes('Warning FailedToRetrieveImagePullSecret Unable to retrieve some image pull secrets (gone); attempting to pull the image may not succeed.'));
});

test('a private image needs an image pull secret that exists: without one the registry refuses, with one it pulls', async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  const privatePod = { ...pod('private', 'myorg/trainer:v9', 'unauthorized'), spec: { imagePullSecrets: [{ name: 'regcred' }], containers: [{ name: 'app', image: 'myorg/trainer:v9' }] } };
  await c.client.create(refs.pods, privatePod);
  await clock.advance(2_000);
  const waiting = (await c.client.get<Pod>(refs.pods, 'default', 'private')).status?.containerStatuses?.[0]?.state?.waiting;
  assert.equal(waiting?.reason, 'ImagePullBackOff');
  const denied = 'rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/myorg/trainer:v9": failed to resolve reference "docker.io/myorg/trainer:v9": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed';
  assert.equal(waiting?.message, `Back-off pulling image "myorg/trainer:v9": ErrImagePull: ${denied}`);
  assert.ok((await events(c, 'private')).includes('Warning FailedToRetrieveImagePullSecret Unable to retrieve some image pull secrets (regcred); attempting to pull the image may not succeed.'));

  await c.client.create(refs.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'regcred', namespace: 'default' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') } });
  for (let s = 0; s < 40; s++) await clock.advance(1_000);
  assert.equal(await status(c, 'private'), 'Running');
});

test('the Node lists the images pulled onto it, largest first, by digest then tag; a failed pull adds none', async () => {
  const { c, clock } = await cluster();
  await using _ = c;
  await c.client.create(refs.pods, pod('web', 'nginx:1.27', '1s'));
  await c.client.create(refs.pods, pod('serve', 'vllm/vllm-openai:v0.6.3', '1s'));
  await c.client.create(refs.pods, pod('typo', 'nginx:1.27-typo', 'notFound'));
  await clock.advance(30_000);
  const node = await c.client.get<Node>(refs.nodes, undefined, 'cpu-0');
  assert.deepEqual(node.status?.images, nodeImages(['docker.io/library/nginx:1.27', 'docker.io/vllm/vllm-openai:v0.6.3']));
  assert.deepEqual(node.status?.images?.map((i) => i.names[1]), ['docker.io/library/nginx:1.27', 'docker.io/vllm/vllm-openai:v0.6.3'], 'largest first');
  assert.match(node.status?.images?.[0]?.names[0] ?? '', /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  const pulled = (await events(c, 'web')).find((e) => e.startsWith('Normal Pulled'));
  assert.ok(pulled?.endsWith(`Image size: ${node.status?.images?.[0]?.sizeBytes} bytes.`), pulled);
});

test('nodeImages keeps the 50 largest', () => {
  const listed = nodeImages(Array.from({ length: 60 }, (_, i) => `registry.example/app:${i}`));
  assert.equal(listed.length, 50);
  assert.ok(listed.every((img, i) => i === 0 || (listed[i - 1]?.sizeBytes ?? 0) >= img.sizeBytes));
});
