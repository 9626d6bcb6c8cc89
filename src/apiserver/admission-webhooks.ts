// Admission webhooks: the MutatingWebhookConfigurations' and ValidatingWebhookConfigurations'
// webhooks that select a request (rules, namespace and object selectors, match conditions) are sent
// an AdmissionReview over HTTPS and answer with allowed, a status, a JSON patch and warnings.
// A `url` webhook is called (a webhook served on this machine, as envtest users run theirs); a
// `service` webhook is addressed as the cluster would, and since no simulated pod serves anything
// the call fails the way a cluster's would without a serving pod: service not found, no endpoints,
// or connection refused. A failed call denies under failurePolicy Fail and is skipped under Ignore.
// A mutating webhook with reinvocationPolicy IfNeeded is called once more when a later one changed the
// object; mutating webhooks are not called on DELETE or on a scale write.
// Upstream: staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook (mutating/dispatcher.go,
// validating/dispatcher.go, errors/statuserror.go, request/admissionreview.go), pkg/util/webhook/error.go.
import { request as httpsRequest } from 'node:https';
import type { Endpoints, MutatingWebhook, MutatingWebhookConfiguration, ValidatingWebhookConfiguration, Webhook } from '../api/index.ts';
import { refs, toCelValue } from '../api/index.ts';
import { ApiError, forbidden, internalError, setOwn } from '../core/index.ts';
import type { KubeObject, Status } from '../core/index.ts';
import { defaultTrustedCertificates } from '../client/index.ts';
import type { AdmissionPlugin } from './admission.ts';
import { admissionRequestOf, deleteRequestOf, evaluateMatchConditions, matches, namespaceLookup, requestOf, watchedPerStore } from './admission-request.ts';
import type { Request } from './admission-request.ts';
import { applyJsonPatch } from './patch/json-patch.ts';
import { storagePrefix } from './stored-object.ts';

const prefixOf = (ref: { group: string; resource: string }): string => storagePrefix(ref.group, ref.resource, '');
const watched = watchedPerStore({ validating: prefixOf(refs.validatingWebhookConfigurations), mutating: prefixOf(refs.mutatingWebhookConfigurations) });

/** The webhooks of every configuration, configurations in name order (as upstream sorts them). */
function hooksOf(configs: ReadonlyMap<string, KubeObject>): Webhook[] {
  return ([...configs.values()] as (ValidatingWebhookConfiguration | MutatingWebhookConfiguration)[]).sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1)).flatMap((c) => c.webhooks ?? []);
}

/** ErrCallingWebhook: `failed calling webhook "<name>": <reason>`. */
class CallError extends Error {}

const callError = (hook: Webhook, reason: string): CallError => new CallError(`failed calling webhook "${hook.name}": ${reason}`);

/**
 * Whether the hook selects the request. Match conditions that fail to evaluate skip the hook under
 * Ignore and refuse the request under Fail, as upstream's `<resource> "<name>" is forbidden: <errors>`.
 */
async function selects(hook: Webhook, r: Request, context: Selection): Promise<boolean> {
  if (!(await matches({ namespaceSelector: hook.namespaceSelector ?? {}, objectSelector: hook.objectSelector ?? {}, resourceRules: hook.rules ?? [] }, r, context.namespace, true))) return false;
  const conditions = hook.matchConditions ?? [];
  if (conditions.length === 0) return true;
  const match = evaluateMatchConditions(conditions, { object: r.object ? toCelValue(r.object) : null, oldObject: r.old ? toCelValue(r.old) : null, request: context.celRequest() });
  if (match.error !== undefined && !failsOpen(hook)) throw forbidden({ group: r.def.group, resource: r.def.resource }, r.name, match.error);
  return match.matches;
}

/** Where the hook is called: its URL, or its service's cluster address (with the failure a sim's service gives). */
async function endpointOf(hook: Webhook, r: Request): Promise<{ url: string } | { unreachable: string; url: string }> {
  const timeout = `timeout=${hook.timeoutSeconds ?? 10}s`;
  const cc = hook.clientConfig ?? {};
  if (cc.url !== undefined) return { url: `${cc.url}?${timeout}` };
  const svc = cc.service ?? {};
  const url = `https://${svc.name ?? ''}.${svc.namespace ?? ''}.svc:${svc.port ?? 443}${svc.path ?? ''}?${timeout}`;
  const service = await r.storage.lookup('', 'v1', 'services', svc.namespace ?? '', svc.name ?? '');
  if (!service) return { url, unreachable: `service "${svc.name ?? ''}" not found` };
  const endpoints = (await r.storage.lookup('', 'v1', 'endpoints', svc.namespace ?? '', svc.name ?? '')) as Endpoints | undefined;
  const subset = endpoints?.subsets?.find((s) => (s.addresses ?? []).length > 0);
  const address = subset?.addresses?.[0]?.ip;
  if (!subset || !address) return { url, unreachable: `no endpoints available for service "${svc.name ?? ''}"` };
  const port = subset.ports?.[0]?.port ?? svc.port ?? 443;
  // The simulated pods run no process: nothing listens behind the endpoint.
  return { url, unreachable: `dial tcp ${address}:${port}: connect: connection refused` };
}

interface AdmissionResponse {
  uid?: string;
  allowed?: boolean;
  status?: Partial<Status>;
  patch?: string;
  patchType?: string;
  warnings?: string[];
}

/** Go's words for the transport errors a webhook call meets. */
function transportMessage(error: NodeJS.ErrnoException, url: URL): string {
  const host = `${url.hostname}:${url.port || 443}`;
  switch (error.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${host}: connect: connection refused`;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: certificate is not valid for ${url.hostname}`;
    case 'ETIMEDOUT':
      return 'context deadline exceeded';
    default:
      return error.message;
  }
}

/** The CAs a call trusts: the webhook's caBundle, else the system's (upstream's words for no caBundle). */
function trustFor(caBundle: string | undefined): { ca?: Buffer | string[] } {
  if (caBundle) return { ca: Buffer.from(caBundle, 'base64') };
  const system = defaultTrustedCertificates();
  return system ? { ca: system } : {};
}

/** Sends the review and returns the webhook's response, or throws a CallError in upstream's words. */
async function call(hook: Webhook, r: Request, review: Record<string, unknown>): Promise<AdmissionResponse> {
  const endpoint = await endpointOf(hook, r);
  if ('unreachable' in endpoint) throw callError(hook, `failed to call webhook: Post "${endpoint.url}": ${endpoint.unreachable}`);
  const url = new URL(endpoint.url);
  const body = JSON.stringify(review);
  const text = await new Promise<string>((resolve, reject) => {
    const req = httpsRequest(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body) },
      timeout: (hook.timeoutSeconds ?? 10) * 1000,
      ...trustFor(hook.clientConfig?.caBundle),
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const out = Buffer.concat(chunks).toString('utf8');
        if ((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300) resolve(out);
        else reject(new Error(`the server responded with the status code ${res.statusCode ?? 0} but did not return more information`));
      });
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(body);
  }).catch((error: NodeJS.ErrnoException) => {
    throw callError(hook, `failed to call webhook: Post "${endpoint.url}": ${transportMessage(error, url)}`);
  });
  let parsed: { response?: AdmissionResponse };
  try {
    parsed = JSON.parse(text) as { response?: AdmissionResponse };
  } catch (error) {
    throw callError(hook, `received invalid webhook response: ${error instanceof Error ? error.message : String(error)}`);
  }
  const response = parsed.response;
  if (!response) throw callError(hook, 'received invalid webhook response: webhook response was absent');
  const uid = (review.request as { uid: string }).uid;
  if (response.uid !== uid) throw callError(hook, `received invalid webhook response: expected response.uid="${uid}", got "${response.uid ?? ''}"`);
  return response;
}

/** ToStatusErr: a refusal carries the webhook's status, at least 400, with the webhook named in its message. */
function rejection(hook: Webhook, status: Partial<Status> | undefined): ApiError {
  const deniedBy = `admission webhook "${hook.name}" denied the request`;
  const message = status?.message ? `${deniedBy}: ${status.message}` : status?.reason ? `${deniedBy}: ${status.reason}` : `${deniedBy} without explanation`;
  const code = (status?.code ?? 0) < 400 ? 400 : (status?.code as number);
  return new ApiError((status?.reason ?? '') as ApiError['reason'], message, status?.details, code);
}

function reviewOf(hook: Webhook, r: Request, request: Record<string, unknown>): Record<string, unknown> {
  const version = (hook.admissionReviewVersions ?? []).includes('v1') ? 'v1' : 'v1beta1';
  return {
    apiVersion: `admission.k8s.io/${version}`,
    kind: 'AdmissionReview',
    request: { ...request, uid: r.storage.random.uuid(), object: r.object ?? null, oldObject: r.old ?? null },
  };
}

/** Replaces `target`'s fields with `source`'s, keeping its identity and its metadata's (callers hold both). */
function replaceInPlace(target: Record<string, unknown>, source: Record<string, unknown>, nested?: string): void {
  for (const key of Object.keys(target)) if (!Object.hasOwn(source, key)) delete target[key];
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (key === nested && typeof current === 'object' && current !== null && typeof value === 'object' && value !== null) replaceInPlace(current as Record<string, unknown>, value as Record<string, unknown>);
    else setOwn(target, key, value);
  }
}

/** What selecting webhooks for one request looks up or builds once: its namespace and CEL's `request`. */
interface Selection {
  namespace: () => Promise<KubeObject | undefined>;
  celRequest: () => Record<string, unknown>;
}

function selectionOf(r: Request): Selection {
  let celRequest: Record<string, unknown> | undefined;
  return { namespace: namespaceLookup(r), celRequest: () => (celRequest ??= toCelValue(admissionRequestOf(r)) as Record<string, unknown>) };
}

const failsOpen = (hook: Webhook): boolean => hook.failurePolicy === 'Ignore';

/**
 * The mutating dispatcher: each selected webhook in turn, its patch applied before the next is called;
 * then, once, each `reinvocationPolicy: IfNeeded` webhook whose object a later webhook changed.
 */
async function mutate(r: Request, object: KubeObject, hooks: readonly Webhook[]): Promise<void> {
  const after = new Map<Webhook, string>();
  const selection = selectionOf(r);
  // Each webhook is matched against the object as the ones before it left it.
  for (const hook of hooks) {
    if (!(await selects(hook, r, selection))) continue;
    await invokeMutating(hook, r, object);
    if ((hook as MutatingWebhook).reinvocationPolicy === 'IfNeeded') after.set(hook, JSON.stringify(object));
  }
  const final = JSON.stringify(object);
  for (const [hook, seen] of after) if (seen !== final) await invokeMutating(hook, r, object);
}

/** One mutating call: its warnings kept, a refusal thrown, its JSON patch applied to `object` in place. */
async function invokeMutating(hook: Webhook, r: Request, object: KubeObject): Promise<void> {
  let response: AdmissionResponse;
  try {
    response = await call(hook, r, reviewOf(hook, r, admissionRequestOf(r)));
  } catch (e) {
    if (e instanceof CallError) {
      if (failsOpen(hook)) return;
      throw internalError(e.message);
    }
    throw e;
  }
  r.ctx.warnings?.push(...(response.warnings ?? []));
  if (!response.allowed) throw rejection(hook, response.status);
  if (!response.patch) return;
  if (response.patchType !== 'JSONPatch') throw internalError(`unsupported patch type "${response.patchType ?? ''}"`);
  let operations: unknown;
  try {
    operations = JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8'));
  } catch (e) {
    throw internalError(e instanceof Error ? e.message : String(e));
  }
  const patched = applyJsonPatch(object, operations);
  if (!patched.ok) throw internalError(patched.message);
  replaceInPlace(object as unknown as Record<string, unknown>, patched.value as Record<string, unknown>, 'metadata');
}

/** The validating dispatcher: every selected webhook (upstream calls them in parallel); the first refusal fails the request. */
async function validate(r: Request, hooks: readonly Webhook[]): Promise<void> {
  const request = admissionRequestOf(r);
  const selection = selectionOf(r);
  const chosen: Webhook[] = [];
  for (const hook of hooks) if (await selects(hook, r, selection)) chosen.push(hook);
  const outcomes = await Promise.all(
    chosen.map(async (hook): Promise<ApiError | undefined> => {
      try {
        const response = await call(hook, r, reviewOf(hook, r, request));
        r.ctx.warnings?.push(...(response.warnings ?? []));
        return response.allowed ? undefined : rejection(hook, response.status);
      } catch (e) {
        if (e instanceof CallError) return failsOpen(hook) ? undefined : internalError(e.message);
        throw e;
      }
    }),
  );
  const refusal = outcomes.find((o) => o !== undefined);
  if (refusal) throw refusal;
}

export const admissionWebhooks: AdmissionPlugin = {
  name: 'AdmissionWebhooks',
  mutate(a) {
    const source = watched(a.storage.store);
    if (source.synced && source.maps.mutating.size === 0) return;
    return source.ready.then(() => {
      const hooks = hooksOf(source.maps.mutating);
      const r = requestOf(a);
      // A scale write is reviewed as a Scale, which this write path does not store: its patches would go nowhere.
      return hooks.length > 0 && r.object === a.object ? mutate(r, a.object, hooks) : undefined;
    });
  },
  validate(a) {
    const source = watched(a.storage.store);
    if (source.synced && source.maps.validating.size === 0) return;
    return source.ready.then(() => validate(requestOf(a), hooksOf(source.maps.validating)));
  },
  validateDelete(a) {
    const source = watched(a.storage.store);
    if (source.synced && source.maps.validating.size === 0) return;
    return source.ready.then(() => validate(deleteRequestOf(a), hooksOf(source.maps.validating)));
  },
};
