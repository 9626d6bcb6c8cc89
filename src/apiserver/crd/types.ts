// apiextensions.k8s.io/v1 CustomResourceDefinition, as the wire format spells it.
// Upstream: staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go, types_jsonschema.go.
import type { Condition, KubeObject } from '../../core/index.ts';

export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, JSONSchemaProps>;
  required?: string[];
  /** JSONSchemaPropsOrArray: its array form decodes, and validation refuses it (so stored schemas have none). */
  items?: JSONSchemaProps;
  additionalProperties?: JSONSchemaProps | boolean;
  additionalItems?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  definitions?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  id?: string;
  default?: unknown;
  enum?: unknown[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  $ref?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: unknown[];
}

export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** jsonPath may be absent from a decoded body: validation reports it as required. */
export interface SelectableField {
  jsonPath?: string;
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: Record<string, never>; scale?: CustomResourceSubresourceScale };
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  spec: {
    group: string;
    names: CustomResourceDefinitionNames;
    scope: string;
    versions: CustomResourceDefinitionVersion[];
    conversion?: { strategy: string };
    preserveUnknownFields?: boolean;
  };
  status?: {
    conditions?: Condition[];
    acceptedNames?: CustomResourceDefinitionNames;
    storedVersions?: string[];
  };
}
