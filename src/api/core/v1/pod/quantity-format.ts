// Renders a summed amount back into a canonical quantity string in the format (binary or decimal SI) of
// the quantities it came from, as Quantity.Add keeps the first operand's format.
import { formatQuantity, parseQuantity, quantityFromMilli, quantityFromValue } from '../../../../core/index.ts';

/** `amount` is millicores for cpu and whole units otherwise (see amount.ts). */
export function formatQuantityLike(name: string, amount: number, samples: readonly string[]): string {
  const format = (samples[0] !== undefined ? parseQuantity(samples[0])?.format : undefined) ?? 'DecimalSI';
  return formatQuantity(name === 'cpu' ? quantityFromMilli(amount, format) : quantityFromValue(amount, format));
}
