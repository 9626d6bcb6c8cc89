// Quantity strings to the amounts the kubelet compares: cpu in millicores, everything else in units.
import { parseQuantity, quantityMilliValue, quantityValue } from '../core/index.ts';

export function resourceAmountOf(name: string, q: string | undefined): number | undefined {
  if (q === undefined) return undefined;
  const parsed = parseQuantity(q);
  if (!parsed) return undefined;
  return name === 'cpu' ? quantityMilliValue(parsed) : quantityValue(parsed);
}
