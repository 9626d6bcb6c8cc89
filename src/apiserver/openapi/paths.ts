// The operations of one served resource as upstream's OpenAPI v3 writes them: collection list/create/
// deletecollection, item get/put/patch/delete, and the subresources, each with x-kubernetes-action and
// x-kubernetes-group-version-kind. kubectl --validate=strict looks for the PATCH operation's fieldValidation.
// Upstream: apiserver/pkg/endpoints/installer.go (registerResourceHandlers) and api/openapi-spec/v3.
import type { ConnectOptions, ResourceDefinition, SubresourceDefinition, Verb } from '../../api/index.ts';
import type { GroupVersionKind, OpenApiSchema } from './schema.ts';

export interface Parameter {
  name: string;
  in: 'query' | 'path';
  description: string;
  required?: boolean;
  schema: OpenApiSchema & { uniqueItems?: boolean };
}

export interface Operation {
  description: string;
  operationId: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: OpenApiSchema }>; required: boolean };
  responses: Record<string, { description: string; content?: Record<string, { schema: OpenApiSchema }> }>;
  'x-kubernetes-action': string;
  'x-kubernetes-group-version-kind': GroupVersionKind;
}

export type PathItem = Partial<Record<'get' | 'put' | 'post' | 'patch' | 'delete' | 'head' | 'options', Operation>> & { parameters?: Parameter[] };

const query = (name: string, description: string, type: 'string' | 'boolean' | 'integer' = 'string'): Parameter => ({
  name,
  in: 'query',
  description,
  schema: { type, uniqueItems: true },
});
const pathParam = (name: string, description: string): Parameter => ({
  name,
  in: 'path',
  description,
  required: true,
  schema: { type: 'string', uniqueItems: true },
});

const dryRun = query('dryRun', 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed');
const fieldManager = query('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.');
const fieldValidation = query('fieldValidation', 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. This is the default behavior prior to v1.23. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.');
const force = query('force', 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.', 'boolean');
const pretty = query('pretty', "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line tool (curl and wget). More info: https://kubernetes.io/docs/reference/using-api/api-concepts/#output-formatting");
const listParams = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'].map((n) =>
  query(n, `${n} is a standard list option; see https://kubernetes.io/docs/reference/using-api/api-concepts/.`, n === 'limit' || n === 'timeoutSeconds' ? 'integer' : n === 'watch' || n === 'allowWatchBookmarks' || n === 'sendInitialEvents' ? 'boolean' : 'string'),
);

const mediaTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
const patchTypes = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];
// Custom resources take no strategic merge patch; kubectl's apply reads this to pick merge patch.
const customPatchTypes = patchTypes.filter((t) => t !== 'application/strategic-merge-patch+json');
const refSchema = (name: string): OpenApiSchema => ({ $ref: `#/components/schemas/${name}` });
const content = (name: string, types = mediaTypes): Record<string, { schema: OpenApiSchema }> =>
  Object.fromEntries(types.map((t) => [t, { schema: refSchema(name) }]));

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** `apps` -> `Apps`, `resource.k8s.io` -> `Resource`, core -> `Core` (operationId and tag spelling). */
function groupWord(group: string): string {
  if (group === '') return 'Core';
  const head = group.endsWith('.k8s.io') ? group.slice(0, -'.k8s.io'.length) : group;
  return head.split('.').map(capitalize).join('');
}

export interface KindSchemas {
  /** Definition name of the kind (`io.k8s.api.core.v1.Pod`); undefined when no schema ships for it. */
  kind?: string;
  list?: string;
  /** Definition names of subresource kinds, by subresource name. */
  subresources: Readonly<Record<string, string | undefined>>;
  /** A custom resource (its PATCH operations list no strategic merge patch). */
  custom?: boolean;
}

/** All path items of one resource, keyed by path. */
export function resourcePaths(def: ResourceDefinition, names: KindSchemas): Record<string, PathItem> {
  const gv = def.group === '' ? `/api/${def.version}` : `/apis/${def.group}/${def.version}`;
  const tag = `${groupWord(def.group).toLowerCase()}_${def.version}`;
  const opPrefix = `${groupWord(def.group)}${capitalize(def.version)}`;
  const scope = def.namespaced ? 'Namespaced' : '';
  const gvk: GroupVersionKind = { group: def.group, version: def.version, kind: def.kind };
  const verbs = new Set<Verb>(def.verbs ?? ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  const kindRef = names.kind ?? 'io.k8s.apimachinery.pkg.runtime.RawExtension';
  const base = def.namespaced ? `${gv}/namespaces/{namespace}/${def.resource}` : `${gv}/${def.resource}`;
  const common = [...(def.namespaced ? [pathParam('namespace', 'object name and auth scope, such as for teams and projects')] : []), pretty];
  const op = (action: string, verb: string, what: string, extra: Partial<Operation>, k: GroupVersionKind = gvk): Operation => ({
    description: `${what}`,
    operationId: `${verb}${opPrefix}${scope}${def.kind}${extra.operationId ?? ''}`,
    tags: [tag],
    responses: extra.responses ?? { '200': { description: 'OK', content: content(kindRef) }, '401': { description: 'Unauthorized' } },
    ...(extra.parameters ? { parameters: extra.parameters } : {}),
    ...(extra.requestBody ? { requestBody: extra.requestBody } : {}),
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': k,
  });
  const writeOps = (ref: string, k: GroupVersionKind, suffix: string, what: string, allowed: ReadonlySet<Verb>): PathItem => {
    const item: PathItem = {};
    const ok = { '200': { description: 'OK', content: content(ref) }, '401': { description: 'Unauthorized' } };
    if (allowed.has('get')) item.get = op('get', 'read', `read ${what}`, { operationId: suffix, responses: ok }, k);
    if (allowed.has('update')) {
      item.put = op('put', 'replace', `replace ${what}`, {
        operationId: suffix,
        parameters: [dryRun, fieldManager, fieldValidation],
        requestBody: { content: content(ref, ['*/*']), required: true },
        responses: { ...ok, '201': { description: 'Created', content: content(ref) } },
      }, k);
    }
    if (allowed.has('patch')) {
      item.patch = op('patch', 'patch', `partially update ${what}`, {
        operationId: suffix,
        parameters: [dryRun, fieldManager, fieldValidation, force],
        requestBody: { content: content('io.k8s.apimachinery.pkg.apis.meta.v1.Patch', names.custom ? customPatchTypes : patchTypes), required: true },
        responses: { ...ok, '201': { description: 'Created', content: content(ref) } },
      }, k);
    }
    return item;
  };

  const paths: Record<string, PathItem> = {};
  const collection: PathItem = { parameters: common };
  if (verbs.has('list')) {
    collection.get = op('list', 'list', `list or watch objects of kind ${def.kind}`, {
      parameters: listParams,
      responses: { '200': { description: 'OK', content: content(names.list ?? kindRef) }, '401': { description: 'Unauthorized' } },
    });
  }
  if (verbs.has('create')) {
    collection.post = op('post', 'create', `create a ${def.kind}`, {
      parameters: [dryRun, fieldManager, fieldValidation],
      requestBody: { content: content(kindRef, ['*/*']), required: true },
      responses: {
        '200': { description: 'OK', content: content(kindRef) },
        '201': { description: 'Created', content: content(kindRef) },
        '202': { description: 'Accepted', content: content(kindRef) },
        '401': { description: 'Unauthorized' },
      },
    });
  }
  if (verbs.has('deletecollection')) {
    collection.delete = op('deletecollection', 'deletecollection', `delete collection of ${def.kind}`, {
      operationId: '',
      parameters: [dryRun, ...listParams],
      responses: { '200': { description: 'OK', content: content('io.k8s.apimachinery.pkg.apis.meta.v1.Status') }, '401': { description: 'Unauthorized' } },
    });
    collection.delete.operationId = `delete${opPrefix}Collection${scope}${def.kind}`;
  }
  paths[base] = collection;

  const item: PathItem = { parameters: [pathParam('name', `name of the ${def.kind}`), ...common], ...writeOps(kindRef, gvk, '', `the specified ${def.kind}`, verbs) };
  if (verbs.has('delete')) {
    item.delete = op('delete', 'delete', `delete a ${def.kind}`, {
      parameters: [dryRun],
      responses: {
        '200': { description: 'OK', content: content('io.k8s.apimachinery.pkg.apis.meta.v1.Status') },
        '202': { description: 'Accepted', content: content('io.k8s.apimachinery.pkg.apis.meta.v1.Status') },
        '401': { description: 'Unauthorized' },
      },
    });
  }
  // A create-only kind (SelfSubjectAccessReview) has no item path at all.
  if (['get', 'update', 'patch', 'delete'].some((v) => verbs.has(v as Verb)) || def.subresources?.length) paths[`${base}/{name}`] = item;

  for (const sub of def.subresources ?? []) {
    const path = `${base}/{name}/${sub.name}`;
    if (!sub.connect) {
      paths[path] = subresourcePath(sub);
      continue;
    }
    paths[path] = connectPath(sub, sub.connect, false);
    if (sub.connect.subpath) paths[`${path}/{path}`] = connectPath(sub, sub.connect, true);
  }
  /** A connecter's path: its options as path-level parameters in name order, one operation a method, no body. */
  function connectPath(sub: SubresourceDefinition, connect: ConnectOptions, withPath: boolean): PathItem {
    const k: GroupVersionKind = { group: def.group, version: def.version, kind: sub.kind ?? def.kind };
    const parameters = [
      pathParam('name', `name of the ${k.kind}`),
      ...(def.namespaced ? [pathParam('namespace', 'object name and auth scope, such as for teams and projects')] : []),
      ...(withPath ? [pathParam('path', 'path to the resource')] : []),
      ...connect.parameters.map((p) => query(p.name, p.description, p.type)),
    ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const item: PathItem = { parameters };
    for (const method of connect.methods) {
      item[method.toLowerCase() as keyof Omit<PathItem, 'parameters'>] = {
        description: `connect ${method} requests to ${sub.name} of ${def.kind}`,
        operationId: `connect${opPrefix}${capitalize(method.toLowerCase())}${scope}${def.kind}${capitalize(sub.name)}${withPath ? 'WithPath' : ''}`,
        tags: [tag],
        responses: { '200': { description: 'OK', content: { '*/*': { schema: { type: 'string' } } } }, '401': { description: 'Unauthorized' } },
        'x-kubernetes-action': 'connect',
        'x-kubernetes-group-version-kind': k,
      };
    }
    return item;
  }
  function subresourcePath(sub: SubresourceDefinition): PathItem {
    const k: GroupVersionKind = sub.kind ? { group: sub.group ?? def.group, version: sub.version ?? def.version, kind: sub.kind } : gvk;
    const ref = names.subresources[sub.name] ?? kindRef;
    const suffix = sub.name.split(/[^a-z0-9]/i).map(capitalize).join('');
    const allowed = new Set(sub.verbs);
    const p: PathItem = { parameters: [pathParam('name', `name of the ${k.kind}`), ...common], ...writeOps(ref, k, suffix, `${sub.name} of the specified ${def.kind}`, allowed) };
    if (allowed.has('create')) {
      p.post = op('post', 'create', `create ${sub.name} of a ${def.kind}`, {
        operationId: suffix,
        parameters: [dryRun, fieldManager, fieldValidation],
        requestBody: { content: content(ref, ['*/*']), required: true },
        responses: { '200': { description: 'OK', content: content(ref) }, '201': { description: 'Created', content: content(ref) }, '401': { description: 'Unauthorized' } },
      }, k);
    }
    return p;
  }
  if (def.namespaced && verbs.has('list')) {
    const all = op('list', 'list', `list or watch objects of kind ${def.kind}`, {
      parameters: listParams,
      responses: { '200': { description: 'OK', content: content(names.list ?? kindRef) }, '401': { description: 'Unauthorized' } },
    });
    all.operationId = `list${opPrefix}${def.kind}ForAllNamespaces`;
    paths[`${gv}/${def.resource}`] = { parameters: [pretty], get: all };
  }
  return paths;
}
