// Syntax checks pod validation uses: the shared api/validation name rules, plus the relaxed env var
// name rule (RelaxedEnvironmentVariableValidation, GA in 1.34) that only containers need.
// Upstream: apimachinery/pkg/util/validation/validation.go (IsRelaxedEnvVarName).
export {
  inclusiveRangeError,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  isValidPortNum,
} from '../../../validation/index.ts';

export function isRelaxedEnvVarName(v: string): string[] {
  for (const ch of v) {
    const c = ch.codePointAt(0) ?? 0;
    if (c > 126 || c < 32 || ch === '=') return ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
  }
  return [];
}
