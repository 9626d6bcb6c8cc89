// For tests: the ApiError a request fails with, or a failed assertion when it succeeds.

import assert from 'node:assert/strict';
import { ApiError } from '../core/index.ts';

/** Awaits `promise` and returns the ApiError it rejects with; any other error is rethrown. */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail('expected the request to fail');
}
