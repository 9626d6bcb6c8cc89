// The generated component schemas, parsed on first use, and lookups by GroupVersionKind.
// Parsing costs a few milliseconds, so `drydock up` pays it on the first OpenAPI, patch or strict write,
// unless it starts from the executable's startup snapshot, whose build parses them. Their
// descriptions are a file read when a served document is first built (descriptions.ts).
import { readFileSync } from 'node:fs';
import { prepareInSnapshot } from '../../core/index.ts';
import { descriptionsFileName, withDescriptions, type DescriptionMap } from './descriptions.ts';
import { schemasJson } from './generated/schemas.ts';
import type { OpenApiSchema, SchemaMap } from './schema.ts';

let parsed: SchemaMap | undefined;
let documented: SchemaMap | undefined;
let byGvk: Map<string, string> | undefined;

/** The schemas without descriptions: what validation, patches and field tracking read. */
export function allSchemas(): SchemaMap {
  parsed ??= JSON.parse(schemasJson) as SchemaMap;
  return parsed;
}

/** The schemas with their descriptions, as the served documents carry them (for `kubectl explain`). */
export function documentedSchemas(): SchemaMap {
  if (!documented) {
    // In generated/ beside this module, and so in dist/generated/ beside the bundle, whose every
    // module has the bundle's URL; scripts/copy-assets.mjs copies it to both.
    documented = withDescriptions(allSchemas(), readDescriptions(new URL(`./generated/${descriptionsFileName}`, import.meta.url)));
  }
  return documented;
}

/**
 * The descriptions' file; without it (a dist/ copied in part) the documents go out without
 * descriptions, with a warning, rather than fail every `kubectl apply` that validates against them.
 */
export function readDescriptions(file: URL): DescriptionMap {
  try {
    // ASCII (generate.ts escapes the rest), so latin1 reads it without decoding UTF-8.
    return JSON.parse(readFileSync(file, 'latin1')) as DescriptionMap;
  } catch (error) {
    process.emitWarning(`OpenAPI documents are served without descriptions: ${error instanceof Error ? error.message : String(error)}`);
    return {};
  }
}

const gvkKey = (group: string, version: string, kind: string): string => `${group}/${version}/${kind}`;

/** The upstream definition name of a kind, e.g. `io.k8s.api.core.v1.Pod`. */
export function definitionNameFor(group: string, version: string, kind: string): string | undefined {
  if (!byGvk) {
    byGvk = new Map();
    for (const [name, schema] of Object.entries(allSchemas())) {
      const gvks = schema['x-kubernetes-group-version-kind'] ?? [];
      // DeleteOptions and WatchEvent carry one entry per group-version; they are nobody's kind.
      if (gvks.length !== 1) continue;
      for (const g of gvks) byGvk.set(gvkKey(g.group, g.version, g.kind), name);
    }
  }
  return byGvk.get(gvkKey(group, version, kind));
}

/** The schema of a served kind, for field validation and explain. */
export function schemaFor(group: string, version: string, kind: string): OpenApiSchema | undefined {
  const name = definitionNameFor(group, version, kind);
  return name === undefined ? undefined : allSchemas()[name];
}

prepareInSnapshot(() => definitionNameFor('', 'v1', 'Pod'));
