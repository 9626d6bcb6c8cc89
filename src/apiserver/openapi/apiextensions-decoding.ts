// The Go types of apiextensions.k8s.io/v1, as encoding/json reads a CustomResourceDefinition body.
// The served schemas leave JSON and the JSONSchemaPropsOr* types untyped, as upstream publishes them,
// so decoding could not tell `additionalProperties: "x"` from a schema; these give each its shapes
// (and 1.35's condition observedGeneration, which the served schemas' source lacks).
// Only the structure decoding needs: types of fields, no descriptions, never served.
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go, types_jsonschema.go
// (JSON is untyped; JSONSchemaPropsOrArray, JSONSchemaPropsOrBool and JSONSchemaPropsOrStringArray
// unmarshal the shape they meet, so they are anyOf their shapes).
import type { OpenApiSchema, SchemaMap } from './schema.ts';

const packagePrefix = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';
const objectMeta: OpenApiSchema = { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' };
const ref = (name: string): OpenApiSchema => ({ $ref: `#/components/schemas/${packagePrefix}${name}` });
const string: OpenApiSchema = { type: 'string' };
const boolean: OpenApiSchema = { type: 'boolean' };
const int32: OpenApiSchema = { type: 'integer', format: 'int32' };
const int64: OpenApiSchema = { type: 'integer', format: 'int64' };
const float64: OpenApiSchema = { type: 'number', format: 'double' };
const byteString: OpenApiSchema = { type: 'string', format: 'byte' };
const untyped: OpenApiSchema = {};
const list = (items: OpenApiSchema): OpenApiSchema => ({ type: 'array', items });
const map = (values: OpenApiSchema): OpenApiSchema => ({ type: 'object', additionalProperties: values });
const struct = (properties: Record<string, OpenApiSchema>): OpenApiSchema => ({ type: 'object', properties });

const schemaProps = ref('JSONSchemaProps');
const schemaOrArray: OpenApiSchema = { anyOf: [schemaProps, list(schemaProps)] };
const schemaOrBool: OpenApiSchema = { anyOf: [schemaProps, boolean] };
const schemaOrStrings: OpenApiSchema = { anyOf: [schemaProps, list(string)] };

export const customResourceDefinitionName = `${packagePrefix}CustomResourceDefinition`;

export const apiextensionsSchemas: SchemaMap = {
  [customResourceDefinitionName]: {
    ...struct({ apiVersion: string, kind: string, metadata: objectMeta, spec: ref('CustomResourceDefinitionSpec'), status: ref('CustomResourceDefinitionStatus') }),
    'x-kubernetes-group-version-kind': [{ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' }],
  },
  [`${packagePrefix}CustomResourceDefinitionSpec`]: struct({
    group: string,
    names: ref('CustomResourceDefinitionNames'),
    scope: string,
    versions: list(ref('CustomResourceDefinitionVersion')),
    conversion: ref('CustomResourceConversion'),
    preserveUnknownFields: boolean,
  }),
  [`${packagePrefix}CustomResourceDefinitionNames`]: struct({
    plural: string,
    singular: string,
    shortNames: list(string),
    kind: string,
    listKind: string,
    categories: list(string),
  }),
  [`${packagePrefix}CustomResourceDefinitionVersion`]: struct({
    name: string,
    served: boolean,
    storage: boolean,
    deprecated: boolean,
    deprecationWarning: string,
    schema: ref('CustomResourceValidation'),
    subresources: ref('CustomResourceSubresources'),
    additionalPrinterColumns: list(ref('CustomResourceColumnDefinition')),
    selectableFields: list(ref('SelectableField')),
  }),
  [`${packagePrefix}CustomResourceValidation`]: struct({ openAPIV3Schema: schemaProps }),
  [`${packagePrefix}CustomResourceSubresources`]: struct({ status: ref('CustomResourceSubresourceStatus'), scale: ref('CustomResourceSubresourceScale') }),
  [`${packagePrefix}CustomResourceSubresourceStatus`]: struct({}),
  [`${packagePrefix}CustomResourceSubresourceScale`]: struct({ specReplicasPath: string, statusReplicasPath: string, labelSelectorPath: string }),
  [`${packagePrefix}CustomResourceColumnDefinition`]: struct({ name: string, type: string, format: string, description: string, priority: int32, jsonPath: string }),
  [`${packagePrefix}SelectableField`]: struct({ jsonPath: string }),
  [`${packagePrefix}CustomResourceConversion`]: struct({ strategy: string, webhook: ref('WebhookConversion') }),
  [`${packagePrefix}WebhookConversion`]: struct({ clientConfig: ref('WebhookClientConfig'), conversionReviewVersions: list(string) }),
  [`${packagePrefix}WebhookClientConfig`]: struct({ url: string, service: ref('ServiceReference'), caBundle: byteString }),
  [`${packagePrefix}ServiceReference`]: struct({ namespace: string, name: string, path: string, port: int32 }),
  [`${packagePrefix}CustomResourceDefinitionStatus`]: struct({
    conditions: list(ref('CustomResourceDefinitionCondition')),
    acceptedNames: ref('CustomResourceDefinitionNames'),
    storedVersions: list(string),
  }),
  [`${packagePrefix}CustomResourceDefinitionCondition`]: struct({
    type: string,
    status: string,
    lastTransitionTime: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time' },
    reason: string,
    message: string,
    observedGeneration: int64,
  }),
  [`${packagePrefix}JSONSchemaProps`]: struct({
    id: string,
    $schema: string,
    $ref: string,
    description: string,
    type: string,
    format: string,
    title: string,
    default: untyped,
    maximum: float64,
    exclusiveMaximum: boolean,
    minimum: float64,
    exclusiveMinimum: boolean,
    maxLength: int64,
    minLength: int64,
    pattern: string,
    maxItems: int64,
    minItems: int64,
    uniqueItems: boolean,
    multipleOf: float64,
    enum: list(untyped),
    maxProperties: int64,
    minProperties: int64,
    required: list(string),
    items: schemaOrArray,
    allOf: list(schemaProps),
    oneOf: list(schemaProps),
    anyOf: list(schemaProps),
    not: schemaProps,
    properties: map(schemaProps),
    additionalProperties: schemaOrBool,
    patternProperties: map(schemaProps),
    dependencies: map(schemaOrStrings),
    additionalItems: schemaOrBool,
    definitions: map(schemaProps),
    externalDocs: ref('ExternalDocumentation'),
    example: untyped,
    nullable: boolean,
    'x-kubernetes-preserve-unknown-fields': boolean,
    'x-kubernetes-embedded-resource': boolean,
    'x-kubernetes-int-or-string': boolean,
    'x-kubernetes-list-map-keys': list(string),
    'x-kubernetes-list-type': string,
    'x-kubernetes-map-type': string,
    'x-kubernetes-validations': list(ref('ValidationRule')),
  }),
  [`${packagePrefix}ExternalDocumentation`]: struct({ description: string, url: string }),
  [`${packagePrefix}ValidationRule`]: struct({ rule: string, message: string, messageExpression: string, reason: string, fieldPath: string, optionalOldSelf: boolean }),
};
