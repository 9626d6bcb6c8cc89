// A query parameter's boolean as the API server decodes one (runtime.Convert_Slice_string_To_bool, which
// the generated url.Values conversions of ListOptions, PatchOptions, PodLogOptions and the rest use).
// Upstream: staging/src/k8s.io/apimachinery/pkg/runtime/conversion.go.

/** Undefined when absent; false for "0" and "false" in any case; true for anything else, "" included. */
export function queryBool(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  return !(raw === '0' || raw.toLowerCase() === 'false');
}
