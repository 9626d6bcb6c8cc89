// PriorityLevelConfiguration (flowcontrol.apiserver.k8s.io/v1): one of API Priority and Fairness'
// concurrency levels. Drydock serves and validates them (and keeps the bootstrap set) but does not
// queue requests by them. Upstream: staging/src/k8s.io/api/flowcontrol/v1/types.go,
// pkg/apis/flowcontrol/v1/defaults.go, pkg/apis/flowcontrol/validation/validation.go,
// pkg/registry/flowcontrol/prioritylevelconfiguration/strategy.go, printers.go.
import { FieldPath, forbiddenField, invalidValue, notSupported, required } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { flowcontrolConditionErrors, mandatorySpecErrors } from './flowcontrol-validation.ts';
import type { FlowcontrolCondition } from './flowcontrol-validation.ts';

export interface QueuingConfiguration {
  queues?: number;
  handSize?: number;
  queueLengthLimit?: number;
}

export interface LimitResponse {
  type?: string;
  queuing?: QueuingConfiguration;
}

export interface PriorityLevelConfigurationSpec {
  type?: string;
  limited?: { nominalConcurrencyShares?: number; lendablePercent?: number; borrowingLimitPercent?: number; limitResponse?: LimitResponse };
  exempt?: { nominalConcurrencyShares?: number; lendablePercent?: number };
}

export interface PriorityLevelConfiguration extends KubeObject {
  metadata: ObjectMeta;
  spec?: PriorityLevelConfigurationSpec;
  status?: { conditions?: FlowcontrolCondition[] };
}

/** SetDefaults_*: exempt and limited shares (0 and 30), lendablePercent 0, queuing 64 x 8, 50 long. */
export function defaultPriorityLevelConfiguration(pl: PriorityLevelConfiguration): void {
  const spec = pl.spec;
  if (spec?.exempt) {
    spec.exempt.nominalConcurrencyShares ??= 0;
    spec.exempt.lendablePercent ??= 0;
  }
  if (spec?.limited) {
    spec.limited.nominalConcurrencyShares ??= 30;
    spec.limited.lendablePercent ??= 0;
    const queuing = spec.limited.limitResponse?.queuing;
    if (queuing) {
      if (!queuing.handSize) queuing.handSize = 8;
      if (!queuing.queues) queuing.queues = 64;
      if (!queuing.queueLengthLimit) queuing.queueLengthLimit = 50;
    }
  }
}

const maxQueues = 10_000_000;
const maxHashBits = 60;

function validateQueuing(q: QueuingConfiguration, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const queues = q.queues ?? 0;
  const handSize = q.handSize ?? 0;
  if ((q.queueLengthLimit ?? 0) <= 0) errs.push(invalidValue(path.child('queueLengthLimit'), q.queueLengthLimit ?? 0, 'must be positive'));
  if (queues <= 0) errs.push(invalidValue(path.child('queues'), queues, 'must be positive'));
  else if (queues > maxQueues) errs.push(invalidValue(path.child('queues'), queues, `must not be greater than ${maxQueues}`));
  if (handSize <= 0) errs.push(invalidValue(path.child('handSize'), handSize, 'must be positive'));
  else if (handSize > queues) errs.push(invalidValue(path.child('handSize'), handSize, `should not be greater than queues (${queues})`));
  else if (Math.ceil(Math.log2(queues) * handSize) > maxHashBits) {
    errs.push(invalidValue(path.child('handSize'), handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${maxHashBits}`));
  }
  return errs;
}

function validateLimitResponse(lr: LimitResponse | undefined, path: FieldPath): FieldError[] {
  const type = lr?.type ?? '';
  if (type === 'Reject') return lr?.queuing ? [forbiddenField(path.child('queuing'), 'must be nil if limited.limitResponse.type is not Limited')] : [];
  if (type === 'Queue') return lr?.queuing ? validateQueuing(lr.queuing, path.child('queuing')) : [required(path.child('queuing'), 'must not be empty if limited.limitResponse.type is Limited')];
  return [notSupported(path.child('type'), type, ['Queue', 'Reject'])];
}

function validateLendable(lendable: number | undefined, path: FieldPath): FieldError[] {
  return lendable !== undefined && !(lendable >= 0 && lendable <= 100) ? [invalidValue(path.child('lendablePercent'), lendable, 'must be between 0 and 100, inclusive')] : [];
}

/** ValidateExemptPriorityLevelConfiguration. */
function validateExempt(exempt: NonNullable<PriorityLevelConfigurationSpec['exempt']>, path: FieldPath): FieldError[] {
  const shares = exempt.nominalConcurrencyShares;
  return [
    ...(shares !== undefined && shares < 0 ? [invalidValue(path.child('nominalConcurrencyShares'), shares, 'must be a non-negative integer')] : []),
    ...validateLendable(exempt.lendablePercent, path),
  ];
}

/** ValidatePriorityLevelConfigurationSpec (v1: zero limited shares are allowed). */
function validateSpec(spec: PriorityLevelConfigurationSpec, name: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = spec.type ?? '';
  if ((name === 'exempt') !== (type === 'Exempt')) errs.push(invalidValue(path.child('type'), type, "type must be 'Exempt' if and only if name is 'exempt'"));
  if (type === 'Exempt') {
    if (spec.limited) errs.push(forbiddenField(path.child('limited'), 'must be nil if the type is not Limited'));
    if (spec.exempt) errs.push(...validateExempt(spec.exempt, path.child('exempt')));
  } else if (type === 'Limited') {
    if (spec.exempt) errs.push(forbiddenField(path.child('exempt'), 'must be nil if the type is Limited'));
    if (!spec.limited) errs.push(required(path.child('limited'), 'must not be empty when type is Limited'));
    else {
      const limited = spec.limited;
      const shares = limited.nominalConcurrencyShares ?? 0;
      if (shares < 0) errs.push(invalidValue(path.child('limited', 'nominalConcurrencyShares'), shares, 'must be a non-negative integer'));
      errs.push(...validateLimitResponse(limited.limitResponse, path.child('limited', 'limitResponse')));
      errs.push(...validateLendable(limited.lendablePercent, path.child('limited')));
      const borrowing = limited.borrowingLimitPercent;
      if (borrowing !== undefined && borrowing < 0) errs.push(invalidValue(path.child('limited', 'borrowingLimitPercent'), borrowing, 'if specified, must be a non-negative integer'));
    }
  } else errs.push(notSupported(path.child('type'), type, ['Exempt', 'Limited']));
  return errs;
}

const spec = FieldPath.root('spec');
const status = FieldPath.root('status');

function validate(pl: PriorityLevelConfiguration): FieldError[] {
  const name = pl.metadata.name ?? '';
  return [...validateSpec(pl.spec ?? {}, name, spec), ...mandatorySpecErrors('priorityLevelConfigurations', name, pl.spec), ...flowcontrolConditionErrors(pl.status?.conditions, status)];
}

/** printPriorityLevelConfiguration: queuing columns only for a queuing level. */
const priorityLevelTable: TablePrinter<PriorityLevelConfiguration> = {
  columns: [
    nameColumn,
    column('Type', 'string', "`type` indicates whether this priority level is subject to limitation on request execution.  A value of `\"Exempt\"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `\"Limited\"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server's limited capacity is made available exclusively to this priority level. Required."),
    column('NominalConcurrencyShares', 'string', 'NominalConcurrencyShares of the priority level'),
    column('Queues', 'string', 'Number of queues'),
    column('HandSize', 'string', 'Hand size'),
    column('QueueLengthLimit', 'string', 'Queue length limit'),
    ageColumn,
  ],
  cells(pl, now) {
    const limited = pl.spec?.limited;
    const queuing = limited?.limitResponse?.type === 'Queue' ? limited.limitResponse.queuing : undefined;
    // Numbers where the level has the setting, as upstream's cells are int32s or "<none>".
    const shares = limited ? (limited.nominalConcurrencyShares ?? 0) : '<none>';
    const q = (v: number | undefined): number | string => (queuing ? (v ?? 0) : '<none>');
    return [pl.metadata.name ?? '', pl.spec?.type ?? '', shares, q(queuing?.queues), q(queuing?.handSize), q(queuing?.queueLengthLimit), translateTimestampSince(pl.metadata.creationTimestamp, now)];
  },
};

export const priorityLevelConfigurationDefinition: ResourceDefinition<PriorityLevelConfiguration> = {
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  kind: 'PriorityLevelConfiguration',
  resource: 'prioritylevelconfigurations',
  singular: 'prioritylevelconfiguration',
  namespaced: false,
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults: defaultPriorityLevelConfiguration,
  prepareForCreate(pl) {
    pl.status = {};
  },
  prepareForUpdate(pl, old, ctx) {
    if (ctx.subresource === 'status') {
      if (old.spec) pl.spec = old.spec;
      else delete pl.spec;
      return;
    }
    pl.status = old.status ?? {};
  },
  validateCreate: (pl) => validate(pl),
  validateUpdate: (pl, old) => [...validateObjectMetaUpdate(pl.metadata, old.metadata), ...validate(pl)],
  validateStatusUpdate: (pl, old) => [...validateObjectMetaUpdate(pl.metadata, old.metadata), ...flowcontrolConditionErrors(pl.status?.conditions, status)],
  table: priorityLevelTable,
};
