import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../../core/index.ts';
import type { Pod } from './types.ts';
import { validatePodCreate } from './validation.ts';
import { validateEphemeralContainersUpdate } from './ephemeral-validation.ts';
import { container, pod } from './fixtures.test-helpers.ts';

const messages = (p: Pod): string[] => validatePodCreate(p).map((e) => formatFieldError(e, { withField: true }));

test('a defaulted minimal pod is valid', () => {
  assert.deepEqual(messages(pod()), []);
});

const cases: { name: string; pod: () => Pod; want: string[] }[] = [
  { name: 'no containers', pod: () => pod({ containers: [] }), want: ['spec.containers: Required value'] },
  { name: 'missing image', pod: () => pod({ containers: [container({ image: '' })] }), want: ['spec.containers[0].image: Required value'] },
  {
    name: 'invalid container name',
    pod: () => pod({ containers: [container({ name: 'App_1' })] }),
    want: [
      `spec.containers[0].name: Invalid value: "App_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ],
  },
  {
    name: 'duplicate names across init and regular containers',
    pod: () => pod({ initContainers: [container()] }),
    want: ['spec.initContainers[0].name: Duplicate value: "app"'],
  },
  {
    name: 'requests above limits',
    pod: () => pod({ containers: [container({ resources: { requests: { cpu: '1' }, limits: { cpu: '500m' } } })] }),
    want: ['spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m'],
  },
  {
    name: 'extended resource requests must equal limits',
    pod: () => pod({ containers: [container({ resources: { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '2' } } })] }),
    want: ['spec.containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2'],
  },
  {
    name: 'extended resources are integers',
    pod: () => pod({ containers: [container({ resources: { limits: { 'nvidia.com/gpu': '500m' } } })] }),
    want: [
      'spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "500m": must be an integer',
      'spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: "500m": must be an integer',
    ],
  },
  {
    name: 'unknown standard resource',
    pod: () => pod({ containers: [container({ resources: { requests: { gpu: '1' } } })] }),
    want: ['spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers'],
  },
  {
    name: 'probes on a regular init container',
    pod: () => pod({ initContainers: [container({ name: 'init', readinessProbe: { exec: { command: ['true'] } } })] }),
    want: ['spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always'],
  },
  {
    name: 'probes on a sidecar are validated, not forbidden',
    pod: () => pod({ initContainers: [container({ name: 'proxy', restartPolicy: 'Always', livenessProbe: { tcpSocket: { port: 8080 }, successThreshold: 2 } })] }),
    want: ['spec.initContainers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1'],
  },
  {
    name: 'probe without a handler',
    pod: () => pod({ containers: [container({ readinessProbe: {} })] }),
    want: ['spec.containers[0].readinessProbe: Required value: must specify a handler type'],
  },
  {
    name: 'a regular container may set its own restartPolicy and exit-code rules (ContainerRestartRules, beta in 1.35)',
    pod: () =>
      pod({
        restartPolicy: 'Never',
        containers: [container({ restartPolicy: 'Never', restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }, { action: 'Restart', exitCodes: { operator: 'NotIn', values: [] } }] })],
      }),
    want: [],
  },
  {
    name: 'a regular init container may set Never or OnFailure with rules',
    pod: () =>
      pod({
        initContainers: [
          container({ name: 'once', restartPolicy: 'Never' }),
          container({ name: 'retry', restartPolicy: 'OnFailure', restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [3] } }] }),
        ],
      }),
    want: [],
  },
  {
    name: 'a regular container restartPolicy outside Always, Never, OnFailure',
    pod: () => pod({ containers: [container({ restartPolicy: 'Sometimes' as 'Always' })] }),
    want: ['spec.containers[0].restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"'],
  },
  {
    name: 'an init container restartPolicy outside Always, Never, OnFailure',
    pod: () => pod({ initContainers: [container({ name: 'init', restartPolicy: 'Sometimes' as 'Always' })] }),
    want: ['spec.initContainers[0].restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"'],
  },
  {
    name: 'restart rules need the container restartPolicy',
    pod: () =>
      pod({
        initContainers: [container({ name: 'init', restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [1] } }] })],
        containers: [container({ restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [1] } }] })],
      }),
    want: [
      'spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used',
      'spec.initContainers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used',
    ],
  },
  {
    name: 'a restart rule with an unsupported action, no exit codes, or an unsupported operator',
    pod: () =>
      pod({
        containers: [
          container({
            restartPolicy: 'Never',
            restartPolicyRules: [
              { action: 'RestartAllContainers' as 'Restart', exitCodes: { operator: 'In', values: [1] } },
              { action: 'Restart' },
              { action: 'Restart', exitCodes: { operator: 'Equals' as 'In', values: [3] } },
              { action: '' as 'Restart', exitCodes: { operator: '' as 'In' } },
            ],
          }),
        ],
      }),
    want: [
      'spec.containers[0].restartPolicyRules[0].action: Unsupported value: "RestartAllContainers": supported values: "Restart"',
      'spec.containers[0].restartPolicyRules[1].exitCodes: Required value: must be specified',
      'spec.containers[0].restartPolicyRules[2].exitCodes.operator: Unsupported value: "Equals": supported values: "In", "NotIn"',
      'spec.containers[0].restartPolicyRules[3].action: Unsupported value: "": supported values: "Restart"',
      'spec.containers[0].restartPolicyRules[3].exitCodes.operator: Unsupported value: "": supported values: "In", "NotIn"',
    ],
  },
  {
    name: 'at most 20 restart rules and 255 exit codes per rule',
    pod: () =>
      pod({
        containers: [
          container({
            restartPolicy: 'Never',
            restartPolicyRules: Array.from({ length: 21 }, (_, i) => ({ action: 'Restart' as const, exitCodes: { operator: 'In' as const, values: i === 0 ? Array.from({ length: 256 }, (_, v) => v) : [42] } })),
          }),
        ],
      }),
    want: ['spec.containers[0].restartPolicyRules: Too long: may not be more than 20 bytes', 'spec.containers[0].restartPolicyRules[0].exitCodes.values: Too long: may not be more than 255 bytes'],
  },
  {
    name: 'exit code values are not range-checked',
    pod: () => pod({ containers: [container({ restartPolicy: 'OnFailure', restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [-1, 256, 300] } }] })] }),
    want: [],
  },
  {
    name: 'a sidecar may carry no restart rules while RestartAllContainers is off',
    pod: () => pod({ initContainers: [container({ name: 'proxy', restartPolicy: 'Always', restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [1] } }] })] }),
    want: ['spec.initContainers[0].restartPolicyRules: Forbidden: restartPolicyRules are not allowed for init containers with restart policy Always'],
  },
  {
    name: 'resizePolicy with an unsupported resource and a duplicate',
    pod: () =>
      pod({
        containers: [
          container({
            resizePolicy: [
              { resourceName: 'cpu', restartPolicy: 'NotRequired' },
              { resourceName: 'cpu', restartPolicy: 'RestartContainer' },
              { resourceName: 'nvidia.com/gpu', restartPolicy: 'NotRequired' },
            ],
          }),
        ],
      }),
    want: [
      'spec.containers[0].resizePolicy[1]: Duplicate value: "cpu"',
      'spec.containers[0].resizePolicy: Unsupported value: "nvidia.com/gpu": supported values: "cpu", "memory"',
    ],
  },
  {
    name: 'resizePolicy on a regular init container',
    pod: () => pod({ initContainers: [container({ name: 'init', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] })] }),
    want: ['spec.initContainers[0].resizePolicy: Invalid value: [{"resourceName":"cpu","restartPolicy":"NotRequired"}]: must not be set for init containers'],
  },
  {
    name: 'container port out of range and duplicate port names',
    pod: () => pod({ containers: [container({ ports: [{ name: 'http', containerPort: 70000 }, { name: 'http', containerPort: 80 }] })] }),
    want: ['spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive', 'spec.containers[0].ports[1].name: Duplicate value: "http"'],
  },
  {
    name: 'volume mount of a missing volume',
    pod: () => pod({ containers: [container({ volumeMounts: [{ name: 'data', mountPath: '/data' }] })] }),
    want: ['spec.containers[0].volumeMounts[0].name: Not found: "data"'],
  },
  {
    name: 'duplicate volume names',
    pod: () => pod({ volumes: [{ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }] }),
    want: ['spec.volumes[1].name: Duplicate value: "v"'],
  },
  {
    // Reported in upstream's order of sources (hostPath before emptyDir), whatever the body's key order.
    name: 'a volume with three sources',
    pod: () => pod({ volumes: [{ name: 'one', emptyDir: {} }, { name: 'many', configMap: { name: 'c' }, emptyDir: {}, hostPath: { path: '/x' } }] }),
    want: ['spec.volumes[1].emptyDir: Forbidden: may not specify more than 1 volume type', 'spec.volumes[1].configMap: Forbidden: may not specify more than 1 volume type'],
  },
  {
    name: 'resource claim with both sources',
    pod: () => pod({ resourceClaims: [{ name: 'gpu', resourceClaimName: 'a', resourceClaimTemplateName: 'b' }] }),
    want: ['spec.resourceClaims[0]: Invalid value: {"name":"gpu","resourceClaimName":"a","resourceClaimTemplateName":"b"}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'],
  },
  {
    name: 'container claim not in the pod',
    pod: () => pod({ resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 't' }], containers: [container({ resources: { claims: [{ name: 'tpu' }] } })] }),
    want: ['spec.containers[0].resources.claims[0]: Not found: "tpu": must be one of the names in pod.spec.resourceClaims: gpu'],
  },
  {
    name: 'container claim with no pod claims',
    pod: () => pod({ containers: [container({ resources: { claims: [{ name: 'gpu' }] } })] }),
    want: ['spec.containers[0].resources.claims[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty'],
  },
  {
    name: 'negative activeDeadlineSeconds',
    pod: () => pod({ activeDeadlineSeconds: 0 }),
    want: ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive'],
  },
  {
    name: 'unsupported restartPolicy and dnsPolicy',
    pod: () => pod({ restartPolicy: 'Sometimes' as 'Always', dnsPolicy: 'Custom' as 'None' }),
    want: [
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.dnsPolicy: Unsupported value: "Custom": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    ],
  },
  {
    name: 'toleration with tolerationSeconds but not NoExecute',
    pod: () => pod({ tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }] }),
    want: ["spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"],
  },
  {
    name: 'duplicate scheduling gates',
    pod: () => pod({ schedulingGates: [{ name: 'example.com/gate' }, { name: 'example.com/gate' }] }),
    want: ['spec.schedulingGates[1]: Duplicate value: "example.com/gate"'],
  },
  {
    name: 'nodeName with scheduling gates',
    pod: () => pod({ nodeName: 'n1', schedulingGates: [{ name: 'gate' }] }),
    want: ['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared'],
  },
  {
    name: 'topology spread maxSkew 0',
    pod: () => pod({ topologySpreadConstraints: [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }] }),
    want: ['spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero'],
  },
  {
    name: 'node affinity In without values',
    pod: () =>
      pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In' }] }] } } } }),
    want: ["spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
  },
  {
    name: 'ephemeral containers on create',
    pod: () => pod({ ephemeralContainers: [{ name: 'debug', image: 'busybox', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }] }),
    want: ['spec.ephemeralContainers: Forbidden: cannot be set on create'],
  },
  {
    name: 'missing namespace',
    pod: () => ({ ...pod(), metadata: { name: 'web' } }),
    want: ['metadata.namespace: Required value'],
  },
];

for (const tc of cases) {
  test(`validatePodCreate: ${tc.name}`, () => {
    assert.deepEqual(messages(tc.pod()), tc.want);
  });
}

test('an ephemeral container may set neither restartPolicy nor restartPolicyRules', () => {
  const old = pod();
  old.metadata.resourceVersion = '7';
  const debug = { ...container({ name: 'debugger', restartPolicy: 'Never', restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [1] } }] }), terminationMessagePolicy: 'File' as const, imagePullPolicy: 'IfNotPresent' as const };
  const updated = { ...old, spec: { ...old.spec, ephemeralContainers: [debug] } } as Pod;
  assert.deepEqual(validateEphemeralContainersUpdate(updated, old).map((e) => formatFieldError(e, { withField: true })), [
    'spec.ephemeralContainers[0].restartPolicy: Forbidden: cannot be set for an Ephemeral Container',
    'spec.ephemeralContainers[0].restartPolicyRules: Forbidden: cannot be set for an Ephemeral Container',
  ]);
});
