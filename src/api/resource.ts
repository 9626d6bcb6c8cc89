// ResourceDefinition: everything the API server needs to serve one kind — its
// names, scope, verbs, subresources, strategy (defaults, prepare, validation),
// table columns, field selectors and patch metadata. One per kind, in api/<group>/<version>/.
// Upstream: pkg/registry/<group>/<kind>/strategy.go and pkg/printers/internalversion/printers.go.
import type { FieldError } from '../core/index.ts';
import type { KubeObject } from '../core/index.ts';
import type { FeatureGates } from './features.ts';
import type { UserInfo } from './authentication/v1/self-subject-review.ts';
import type { AccessAttributes, Decision } from './rbac/v1/authorization.ts';
import type { PolicyRule } from './rbac/v1/types.ts';

/** What the server tells a review kind about the caller: who it is, and what its question needed. */
export interface ReviewContext {
  user: UserInfo;
  decision?: Decision | undefined;
  rules?: { rules: PolicyRule[]; errors: string[] } | undefined;
  /** For a token review: what authenticating the token found. */
  authentication?: TokenAuthentication | undefined;
}

/** What authenticating a bearer token finds (upstream's authenticator.Response, or its error). */
export type TokenAuthentication =
  | { authenticated: true; user: UserInfo; audiences: string[] }
  | { authenticated: false; error: string };

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
export const allVerbs: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface TableColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  /** 0 = always shown; 1 = only with -o wide (the server always fills the cell). */
  priority: number;
}

export interface TablePrinter<T> {
  readonly columns: readonly TableColumnDefinition[];
  /** One row's cells, in column order. `now` comes from the Clock (ages are relative to it). */
  cells(obj: T, now: number): unknown[];
  /** The order of a list's rows, for the printers that sort (FlowSchemas by precedence); absent, list order. */
  compareRows?(a: T, b: T): number;
}

/**
 * Patch metadata for one node of a kind's schema: the strategic-merge-patch directives
 * and server-side-apply list semantics upstream declares with struct tags and
 * x-kubernetes-* OpenAPI extensions.
 */
export interface PatchMeta {
  /** SMP `patchMergeKey` of a list of objects. */
  mergeKey?: string;
  /** SMP `patchStrategy`: 'merge', 'replace', 'retainKeys' or 'merge,retainKeys'. */
  strategy?: string;
  /** SSA `x-kubernetes-list-type`. */
  listType?: 'atomic' | 'set' | 'map';
  /** SSA `x-kubernetes-list-map-keys`. */
  listMapKeys?: readonly string[];
  /** SSA `x-kubernetes-map-type`. */
  mapType?: 'atomic' | 'granular';
  /** Named fields of an object. */
  fields?: Readonly<Record<string, PatchMeta>>;
  /** Elements of a list. */
  items?: PatchMeta;
  /** Values of a map (additionalProperties). */
  values?: PatchMeta;
}

/** What a strategy hook may consult besides the object. */
export interface StrategyContext {
  /** Milliseconds since the epoch, from the server's Clock. */
  now: number;
  /** The subresource being written, if any (status, resize, ...). */
  subresource?: string;
  /**
   * The server's feature gates: strategies drop the fields of disabled ones (dropDisabledFields).
   * The API server always sets them; absent (a context built by hand) means defaultFeatureGates.
   */
  featureGates?: FeatureGates;
  /** Who the request acts as (a CSR records its requester); absent for the cluster's own writers. */
  user?: UserInfo;
}

export interface SubresourceDefinition {
  name: string;
  /** The kind the subresource speaks when not the parent's (Scale, Binding, Eviction). */
  group?: string;
  version?: string;
  kind?: string;
  verbs: readonly Verb[];
  /** A connecter's (exec, attach, portforward, proxy): served as a stream or a proxy, not as an object. */
  connect?: ConnectOptions;
}

export type ConnectMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** What upstream's rest.Connecter says of itself: its HTTP methods and its options kind's query parameters. */
export interface ConnectOptions {
  methods: readonly ConnectMethod[];
  /** The options kind's fields as query parameters, in upstream's OpenAPI words. */
  parameters: readonly { name: string; description: string; type: 'string' | 'boolean' | 'integer' }[];
  /** The rest of the URL after the subresource is the options' `path` (a proxy's `{name}/proxy/{path}`). */
  subpath?: boolean;
}

export interface ResourceDefinition<T extends KubeObject = KubeObject> {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Plural lowercase name used in URLs: `pods`. */
  readonly resource: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** Defaults to allVerbs. */
  readonly verbs?: readonly Verb[];
  readonly subresources?: readonly SubresourceDefinition[];
  /** True when .status is written only through the status subresource. */
  readonly hasStatus: boolean;
  /** metadata.generation counts spec changes; defaults to hasStatus (strategies that do not set it say false). */
  readonly tracksGeneration?: boolean;
  /**
   * Status writes keep the stored metadata (upstream ResetObjectMetaForStatus, as custom
   * resources do). Built-in kinds default to false: their status strategies reset only spec
   * (and whatever prepareForUpdate restores), so controllers may set annotations there.
   */
  readonly statusResetsMetadata?: boolean;
  /**
   * Served from another kind's storage, converted on the way in and out, as upstream serves
   * events.k8s.io/v1 Events from the core/v1 Event registry.
   */
  readonly storedAs?: {
    readonly group: string;
    readonly resource: string;
    toStored(obj: T): KubeObject;
    fromStored(obj: KubeObject): T;
  };
  /** Name format check (upstream ValidateNameFunc); defaults to DNS-1123 subdomain. */
  readonly validateName?: (name: string, prefix: boolean) => string[];

  /** Scheme defaulting (SetDefaults_*): fills absent fields in place. Runs on every decoded write. */
  defaults?(obj: T): void;
  /** PrepareForCreate: clear or initialize server-owned fields (e.g. status) in place. */
  prepareForCreate?(obj: T, ctx: StrategyContext): void;
  /** PrepareForUpdate: keep fields the caller may not change via this endpoint, in place. */
  prepareForUpdate?(obj: T, old: T, ctx: StrategyContext): void;
  validateCreate?(obj: T, ctx: StrategyContext): FieldError[];
  /**
   * validateCreate opens with the object meta check the create handler runs (validateObjectMeta with
   * the kind's scope and name format), so the handler leaves it to validateCreate instead of running it twice.
   */
  readonly validateCreateChecksMeta?: true;
  validateUpdate?(obj: T, old: T, ctx: StrategyContext): FieldError[];
  /** Validation for writes through the status subresource. */
  validateStatusUpdate?(obj: T, old: T, ctx: StrategyContext): FieldError[];
  /**
   * What encoding for storage drops, in place, after validation and admission (a dry run too): a custom
   * resource's fields its schema does not keep, as upstream's storage codec prunes them.
   */
  pruneForStorage?(obj: T): void;

  /** Sent as a Warning header with every request for this resource (an API upstream deprecated). */
  readonly deprecationWarning?: string;
  /**
   * A kind whose create asks a question and stores nothing (SelfSubjectAccessReview,
   * SelfSubjectReview): after defaults and validateCreate, the answer is `review(obj, context)` for the
   * user the request acts as, with the authorizer's decision on what `reviewAccess` says it asks.
   */
  readonly review?: (obj: T, context: ReviewContext) => T;
  readonly reviewAccess?: (obj: T) => AccessAttributes;
  /** For a review about another user (SubjectAccessReview): that user, instead of the caller. */
  readonly reviewSubject?: (obj: T) => UserInfo;
  /** For a rules review: the namespace whose rules (with the cluster-wide ones) `review` is given. */
  readonly reviewRulesIn?: (obj: T) => string;
  /** For a token review: the bearer token to authenticate and the audiences it must be valid for (none: the API server's). */
  readonly reviewToken?: (obj: T) => { token: string; audiences: readonly string[] };

  readonly table?: TablePrinter<T>;
  /** Field selector labels beyond metadata.name and metadata.namespace (added for every kind). */
  readonly fieldLabels?: Readonly<Record<string, (obj: T) => string | undefined>>;
  /** Patch metadata of the whole object (root PatchMeta with fields). */
  readonly patchMeta?: PatchMeta;
}

/** The GroupVersionResource of a definition, as clients address it. */
export interface ResourceRef {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export function apiVersionOf(def: { group: string; version: string }): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}
