// The Go types of authentication.k8s.io/v1 TokenRequest, as encoding/json reads the body of a POST to
// serviceaccounts/<name>/token. The generated schemas have no TokenRequest (a subresource's kind):
// without these a TokenRequest with a number for its bound object's apiVersion failed with a JavaScript
// error. Only the structure decoding needs; never served.
// Upstream: k8s.io/api/authentication/v1/types.go (TokenRequest, TokenRequestSpec, BoundObjectReference).
import type { OpenApiSchema, SchemaMap } from './schema.ts';

const packagePrefix = 'io.k8s.api.authentication.v1.';
const ref = (name: string): OpenApiSchema => ({ $ref: `#/components/schemas/${name}` });
const string: OpenApiSchema = { type: 'string' };
const struct = (properties: Record<string, OpenApiSchema>): OpenApiSchema => ({ type: 'object', properties });

export const tokenRequestName = `${packagePrefix}TokenRequest`;

export const tokenRequestSchemas: SchemaMap = {
  [tokenRequestName]: struct({
    apiVersion: string,
    kind: string,
    metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'),
    spec: ref(`${packagePrefix}TokenRequestSpec`),
    status: ref(`${packagePrefix}TokenRequestStatus`),
  }),
  [`${packagePrefix}TokenRequestSpec`]: struct({
    audiences: { type: 'array', items: string },
    expirationSeconds: { type: 'integer', format: 'int64' },
    boundObjectRef: ref(`${packagePrefix}BoundObjectReference`),
  }),
  [`${packagePrefix}BoundObjectReference`]: struct({ kind: string, apiVersion: string, name: string, uid: string }),
  [`${packagePrefix}TokenRequestStatus`]: struct({ token: string, expirationTimestamp: ref('io.k8s.apimachinery.pkg.apis.meta.v1.Time') }),
};
