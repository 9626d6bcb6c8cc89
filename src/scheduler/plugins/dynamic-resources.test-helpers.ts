// The DRA scenario helpers live in test/dra-scenario.ts, shared with the ResourceClaim controller's tests.
export * from '../../../test/dra-scenario.ts';
