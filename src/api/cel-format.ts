// Kubernetes' CEL Format library (1.31): named string formats whose validate() gives none for a valid
// string or the validation's messages, for rules that check a field by a name format and say why in a
// messageExpression: `format.dns1123Label().validate(self.name)`, `format.named('uuid')`.
// Upstream: staging/src/k8s.io/apiserver/pkg/cel/library/format.go, pkg/cel/format.go.
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { isBase64, isDate, isDateTime, isQualifiedName, isUUID, isValidLabelValue, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain } from './validation/index.ts';
import { requestURIError } from './cel-network.ts';

/** apiservercel.Format: a named check; two formats are equal when their names are. */
export class CelNamedFormat {
  readonly name: string;
  readonly validate: (s: string) => string[];
  constructor(name: string, validate: (s: string) => string[]) {
    this.name = name;
    this.validate = validate;
  }
}

/** The `format` namespace. */
export class CelFormatNamespace {}

const only = (ok: (s: string) => boolean, message: string) => (s: string): string[] => (ok(s) ? [] : [message]);

// ConstantFormats, by the names CEL calls them.
const formats: Record<string, CelNamedFormat> = {
  dns1123Label: new CelNamedFormat('DNS1123Label', (s) => nameIsDNSLabel(s, false)),
  dns1123Subdomain: new CelNamedFormat('DNS1123Subdomain', (s) => nameIsDNSSubdomain(s, false)),
  dns1035Label: new CelNamedFormat('DNS1035Label', (s) => nameIsDNS1035Label(s, false)),
  qualifiedName: new CelNamedFormat('QualifiedName', isQualifiedName),
  dns1123LabelPrefix: new CelNamedFormat('DNS1123LabelPrefix', (s) => nameIsDNSLabel(s, true)),
  dns1123SubdomainPrefix: new CelNamedFormat('DNS1123SubdomainPrefix', (s) => nameIsDNSSubdomain(s, true)),
  dns1035LabelPrefix: new CelNamedFormat('DNS1035LabelPrefix', (s) => nameIsDNS1035Label(s, true)),
  labelValue: new CelNamedFormat('LabelValue', isValidLabelValue),
  uri: new CelNamedFormat('URI', (s) => {
    const error = requestURIError(s);
    return error === undefined ? [] : [error];
  }),
  uuid: new CelNamedFormat('uuid', only(isUUID, 'does not match the UUID format')),
  byte: new CelNamedFormat('byte', only(isBase64, 'invalid base64')),
  date: new CelNamedFormat('date', only(isDate, 'invalid date')),
  datetime: new CelNamedFormat('datetime', only(isDateTime, 'invalid datetime')),
};

/** Registers the Format library on `env`. */
export function withFormatLibrary(env: Environment): Environment {
  let out = env
    .registerType('kubernetes.NamedFormat', CelNamedFormat)
    .registerType('kubernetes.FormatNamespace', CelFormatNamespace)
    .registerConstant('format', 'kubernetes.FormatNamespace', new CelFormatNamespace())
    .registerFunction('kubernetes.FormatNamespace.named(string): optional<kubernetes.NamedFormat>', (_: CelFormatNamespace, name: string) =>
      Object.hasOwn(formats, name) ? Optional.of(formats[name]) : Optional.none(),
    )
    .registerFunction('kubernetes.NamedFormat.validate(string): optional<list<string>>', (f: CelNamedFormat, s: string) => {
      const messages = f.validate(s);
      return messages.length === 0 ? Optional.none() : Optional.of(messages);
    })
    .registerOperator('kubernetes.NamedFormat == kubernetes.NamedFormat', (a: CelNamedFormat, b: CelNamedFormat) => a.name === b.name);
  for (const [name, format] of Object.entries(formats)) out = out.registerFunction(`kubernetes.FormatNamespace.${name}(): kubernetes.NamedFormat`, () => format);
  return out;
}
