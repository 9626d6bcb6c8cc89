// Compact per-message field tables for the Kubernetes protobuf wire format, and their parser.
// Upstream: the `protobuf:"bytes,N,opt,name=x"` tags of k8s.io/api/**/types.go (go-to-protobuf output).
//
// A message is a space-separated list of `number:jsonName:type`, in Go struct (= JSON) order:
//   '1:metadata:meta.v1.ObjectMeta 2:spec:DeploymentSpec 1:replicas:i? 3:command:s* 7:nodeSelector:{s:s}'
// type:   s string, b bool, i int32, l int64, u uint32, L uint64, d double, f float, y bytes (base64 in JSON),
//         a message of the same package (`PodSpec`), of another package (`meta.v1.ObjectMeta`),
//         a special shape (`@time`, `@microtime`, `@duration`, `@quantity`, `@intstr`, `@raw`, `@strings`),
//         or a map `{key:value}`.
// suffix: `*` repeated; `?` a Go pointer, so a present zero value ("", 0, false, {}) is meaningful and kept.
// name:   `...` marks an embedded Go struct whose fields JSON inlines into the parent (Volume.VolumeSource).

export interface ProtoPackage {
  /** Proto package without the `k8s.io.api.` / `k8s.io.apimachinery.pkg.apis.` prefix, e.g. `core.v1`. */
  readonly proto: string;
  /** API group served from these messages; absent for packages that hold no kinds (meta.v1). */
  readonly group?: string;
  readonly version?: string;
  /** Messages that are kinds (carry TypeMeta) and may head an envelope. */
  readonly kinds?: readonly string[];
  readonly messages: Readonly<Record<string, string>>;
}

export type ScalarType = 's' | 'b' | 'i' | 'l' | 'u' | 'L' | 'd' | 'f' | 'y';
export type SpecialType = '@time' | '@microtime' | '@duration' | '@quantity' | '@intstr' | '@raw' | '@strings';

export type ValueType =
  | { readonly kind: 'scalar'; readonly scalar: ScalarType }
  | { readonly kind: 'special'; readonly special: SpecialType }
  | { readonly kind: 'message'; readonly message: string };

export interface FieldSpec {
  readonly number: number;
  /** JSON name, or undefined for an inlined embedded struct. */
  readonly name: string | undefined;
  readonly value: ValueType;
  readonly repeated: boolean;
  readonly pointer: boolean;
  /** Present for map fields; `value` is then the map's value type. */
  readonly mapKey?: ScalarType;
}

export interface MessageSpec {
  /** Fully qualified short name, e.g. `core.v1.PodSpec`. */
  readonly name: string;
  readonly fields: readonly FieldSpec[];
  readonly byNumber: ReadonlyMap<number, FieldSpec>;
}

const SCALARS: ReadonlySet<string> = new Set(['s', 'b', 'i', 'l', 'u', 'L', 'd', 'f', 'y']);
const SPECIALS: ReadonlySet<string> = new Set(['@time', '@microtime', '@duration', '@quantity', '@intstr', '@raw', '@strings']);

function parseValueType(text: string, pkg: string): ValueType {
  if (SCALARS.has(text)) return { kind: 'scalar', scalar: text as ScalarType };
  if (SPECIALS.has(text)) return { kind: 'special', special: text as SpecialType };
  if (!/^[A-Za-z][\w.]*$/.test(text)) throw new Error(`bad field type ${JSON.stringify(text)} in ${pkg}`);
  return { kind: 'message', message: text.includes('.') ? text : `${pkg}.${text}` };
}

export function parseField(entry: string, pkg: string): FieldSpec {
  const first = entry.indexOf(':');
  const second = entry.indexOf(':', first + 1);
  const number = Number(entry.slice(0, first));
  const rawName = entry.slice(first + 1, second);
  let type = entry.slice(second + 1);
  if (!Number.isInteger(number) || number <= 0 || rawName === '' || type === '') {
    throw new Error(`bad field entry ${JSON.stringify(entry)} in ${pkg}`);
  }
  const name = rawName === '...' ? undefined : rawName;
  const map = /^\{(\w):([^}]+)\}$/.exec(type);
  if (map) {
    const key = map[1] ?? '';
    if (!SCALARS.has(key)) throw new Error(`bad map key in ${JSON.stringify(entry)}`);
    return { number, name, value: parseValueType(map[2] ?? '', pkg), repeated: false, pointer: false, mapKey: key as ScalarType };
  }
  const repeated = type.endsWith('*');
  const pointer = type.endsWith('?');
  if (repeated || pointer) type = type.slice(0, -1);
  return { number, name, value: parseValueType(type, pkg), repeated, pointer };
}

export function parseMessage(name: string, body: string, pkg: string): MessageSpec {
  const fields = body.split(' ').filter((part) => part !== '').map((part) => parseField(part, pkg));
  const byNumber = new Map<number, FieldSpec>();
  for (const field of fields) byNumber.set(field.number, field);
  return { name: `${pkg}.${name}`, fields, byNumber };
}
