// The DRA scenario helpers live in test/dra-scenario.ts, shared with the scheduler plugin's tests.
export * from '../../../test/dra-scenario.ts';
