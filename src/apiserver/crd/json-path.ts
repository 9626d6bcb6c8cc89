// The JSONPath subset additionalPrinterColumns use: `.spec.replicas`, `.items[0]`, `[*]`, and filters
// such as `.status.conditions[?(@.type=="Ready")].status`. Returns every match, in order.
// Upstream: k8s.io/client-go/util/jsonpath (as used by apiextensions tableconvertor).

type Step = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'all' } | { kind: 'filter'; path: string[]; value: string };

export function parseJsonPath(expression: string): Step[] | undefined {
  const text = expression.replace(/^\{/, '').replace(/\}$/, '');
  const steps: Step[] = [];
  const re = /\.([A-Za-z0-9_-]+)|\[(\d+)\]|\[\*\]|\[\?\(@((?:\.[A-Za-z0-9_-]+)+)\s*==\s*["']([^"']*)["']\)\]|\['([^']+)'\]/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text)) !== null) {
    if (m[1] !== undefined) steps.push({ kind: 'field', name: m[1] });
    else if (m[2] !== undefined) steps.push({ kind: 'index', index: Number(m[2]) });
    else if (m[3] !== undefined) steps.push({ kind: 'filter', path: m[3].slice(1).split('.'), value: m[4] ?? '' });
    else if (m[5] !== undefined) steps.push({ kind: 'field', name: m[5] });
    else steps.push({ kind: 'all' });
  }
  return re.lastIndex === text.length || text.length === 0 ? steps : undefined;
}

export function evaluateJsonPath(steps: readonly Step[], root: unknown): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (step.kind === 'field') {
        if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.hasOwn(v, step.name)) next.push((v as Record<string, unknown>)[step.name]);
      } else if (!Array.isArray(v)) {
        continue;
      } else if (step.kind === 'index') {
        if (step.index < v.length) next.push(v[step.index]);
      } else if (step.kind === 'all') {
        next.push(...v);
      } else {
        for (const item of v) {
          let x: unknown = item;
          for (const f of step.path) x = typeof x === 'object' && x !== null ? (x as Record<string, unknown>)[f] : undefined;
          if (x !== undefined && String(x) === step.value) next.push(item);
        }
      }
    }
    current = next;
  }
  return current;
}
