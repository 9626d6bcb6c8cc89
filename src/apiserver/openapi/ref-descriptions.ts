// Build-time source of the descriptions of properties that refer to another type (`Pod.spec`,
// `PodSpec.affinity`, `ConfigMap.metadata`). client-node's models drop them, as openapi-generator keeps
// nothing beside a $ref; kubernetes-models' `.d.ts` doc comments, generated from upstream's spec, keep
// them (docs/dependencies.md). Nothing at run time imports this file.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folders of kubernetes-models' API types and of @kubernetes-models/apimachinery's. */
export interface RefDescriptionSource {
  api: string;
  apimachinery: string;
}

export function kubernetesModelsDirs(): RefDescriptionSource {
  const v1 = fileURLToPath(import.meta.resolve('kubernetes-models/v1'));
  const meta = fileURLToPath(import.meta.resolve('@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta'));
  return { api: dirname(dirname(v1)), apimachinery: dirname(dirname(dirname(dirname(meta)))) };
}

// Group folders that are not `<group>.k8s.io`.
const groupFolders: Readonly<Record<string, string>> = {
  core: 'v1',
  apps: 'apps',
  batch: 'batch',
  autoscaling: 'autoscaling',
  policy: 'policy',
  rbac: 'rbac.authorization.k8s.io',
  flowcontrol: 'flowcontrol.apiserver.k8s.io',
};

/** The `.d.ts` file that declares an upstream definition, e.g. `io.k8s.api.apps.v1.DeploymentSpec`. */
function declarationFile(source: RefDescriptionSource, definition: string): string | undefined {
  const meta = /^io\.k8s\.apimachinery\.pkg\.apis\.meta\.(v1)\.(\w+)$/.exec(definition);
  if (meta) return join(source.apimachinery, 'apis', 'meta', meta[1]!, `${meta[2]}.d.ts`);
  const api = /^io\.k8s\.(?:api|kube-aggregator\.pkg\.apis|apiextensions-apiserver\.pkg\.apis)\.(\w+)\.(\w+)\.(\w+)$/.exec(definition);
  if (!api) return undefined;
  const [, group, version, kind] = api as unknown as [string, string, string, string];
  if (group === 'core') return join(source.api, 'v1', `${kind}.d.ts`);
  return join(source.api, groupFolders[group] ?? `${group}.k8s.io`, version, `${kind}.d.ts`);
}

// The doc comments of a definition's fields, as upstream's spec has the text: kubernetes-models keeps
// upstream's line breaks and escapes a star as `\*` (and the slash after one as `\/`) in its comments.
export function fieldDocs(source: RefDescriptionSource, definition: string): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  const file = declarationFile(source, definition);
  if (file === undefined || !existsSync(file)) return out;
  // The interface carries the comments; the class after it repeats the fields without them.
  const body = /export interface I\w+(?: extends [\w, ]+)? \{([\s\S]*?)\n\}/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  for (const m of body.matchAll(/\/\*\*\n((?:(?!\*\/)[\s\S])*?)\*\/\n\s*"([^"]+)"\??:/g)) {
    const text = m[1]!
      .split('\n')
      .map((line) => line.replace(/^\s*\*(?: |$)/, ''))
      .join('\n')
      .trim()
      .replace(/\\([*/])/g, '$1');
    out.set(m[2]!, text);
  }
  return out;
}
