// A mistake in how drydock was called: reported in one line, exit code 2.
export class UsageError extends Error {}
