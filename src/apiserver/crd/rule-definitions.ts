// What a CRD's x-kubernetes-validations entries must be, checked when the CRD is written: a rule, a
// message without line breaks (one is needed when the rule has them), a supported reason, a fieldPath
// that names a field of the schema; then, where the schema below holds no error, the rule and its
// messageExpression compile, oldSelf is used only where old values correlate (not under an atomic list,
// a set or an atomic map), and optionalOldSelf is set only for a rule that uses oldSelf.
// Upstream: apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go
// (ValidateCustomResourceDefinitionOpenAPISchema), apiserver/schema/cel/validation.go (ValidFieldPath, in field-path.ts).
import type { FieldError } from '../../core/index.ts';
import { GoSyntax, goQuote, invalidValue, notSupported, required } from '../../core/index.ts';
import type { JSONSchemaProps } from './types.ts';
import { compileRule } from './validation-rules.ts';
import { usesOldSelf } from './correlation.ts';
import { validFieldPath } from './field-path.ts';

interface RuleDefinition {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

const supportedReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const newlines = /[\n\r]+/;

/**
 * The rule as the CRD validation's field error prints it (the internal type with %#v); a pointer that is
 * set prints its address upstream, shown here as a fixed stand-in.
 */
function ruleGoSyntax(rule: RuleDefinition): GoSyntax {
  const pointer = (type: string, set: boolean): string => `(*${type})(${set ? '0xc000a1e0f0' : 'nil'})`;
  return new GoSyntax(
    `apiextensions.ValidationRule{Rule:${goQuote(rule.rule ?? '')}, Message:${goQuote(rule.message ?? '')}, MessageExpression:${goQuote(rule.messageExpression ?? '')}, Reason:${pointer('apiextensions.FieldValueErrorReason', rule.reason !== undefined)}, FieldPath:${goQuote(rule.fieldPath ?? '')}, OptionalOldSelf:${pointer('bool', rule.optionalOldSelf !== undefined)}}`,
  );
}

/** The entries' schema errors, and (when `compile`) their CEL errors; `uncorrelatable` is the path old values stop correlating at. */
export function ruleDefinitionErrors(s: JSONSchemaProps, path: string, compile: boolean, uncorrelatable: string | undefined): { schema: FieldError[]; cel: FieldError[] } {
  const schema: FieldError[] = [];
  const cel: FieldError[] = [];
  ((s['x-kubernetes-validations'] ?? []) as RuleDefinition[]).forEach((rule, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const trimmedRule = (rule.rule ?? '').trim();
    const trimmedMessage = (rule.message ?? '').trim();
    if (trimmedRule === '') schema.push(required(`${at}.rule`, 'rule is not specified'));
    else if ((rule.message ?? '') !== '' && trimmedMessage === '') schema.push(invalidValue(`${at}.message`, rule.message, 'message must be non-empty if specified'));
    else if (newlines.test(trimmedMessage)) schema.push(invalidValue(`${at}.message`, rule.message, 'message must not contain line breaks'));
    else if (newlines.test(trimmedRule) && trimmedMessage === '') schema.push(required(`${at}.message`, 'message must be specified if rule contains line breaks'));
    if ((rule.messageExpression ?? '') !== '' && (rule.messageExpression ?? '').trim() === '') schema.push(required(`${at}.messageExpression`, 'messageExpression must be non-empty if specified'));
    if (rule.reason !== undefined && !supportedReasons.includes(rule.reason)) schema.push(notSupported(`${at}.reason`, rule.reason, supportedReasons));
    if (rule.fieldPath !== undefined) {
      if (rule.fieldPath !== '' && rule.fieldPath.trim() === '') schema.push(invalidValue(`${at}.fieldPath`, rule.fieldPath, 'fieldPath must be non-empty if specified'));
      if (newlines.test(rule.fieldPath)) schema.push(invalidValue(`${at}.fieldPath`, rule.fieldPath, 'fieldPath must not contain line breaks'));
      if (rule.fieldPath !== '' && !validFieldPath(rule.fieldPath, s).ok) schema.push(invalidValue(`${at}.fieldPath`, rule.fieldPath, 'fieldPath must be a valid path'));
    }
  });
  if (!compile || schema.length > 0) return { schema, cel };
  ((s['x-kubernetes-validations'] ?? []) as RuleDefinition[]).forEach((rule, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const text = rule.rule ?? '';
    const optionalOldSelf = rule.optionalOldSelf === true;
    const compiled = compileRule(text, optionalOldSelf);
    if ('message' in compiled) cel.push(invalidValue(`${at}.rule`, ruleGoSyntax(rule), compiled.message));
    if (rule.messageExpression !== undefined && rule.messageExpression.trim() !== '') {
      const message = compileRule(rule.messageExpression, optionalOldSelf);
      if ('message' in message) cel.push(invalidValue(`${at}.messageExpression`, ruleGoSyntax(rule), message.message));
    }
    if ('message' in compiled) return;
    if (usesOldSelf(text)) {
      if (uncorrelatable !== undefined) cel.push(invalidValue(`${at}.rule`, text, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
    } else if (rule.optionalOldSelf !== undefined) cel.push(invalidValue(`${at}.optionalOldSelf`, rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
  });
  return { schema, cel };
}
