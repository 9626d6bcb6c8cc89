// Public surface of client/: the Client interface, informers and work queues.
// LocalClient is created by the API server (apiserver's createLocalClient), the one layer
// that can run the request pipeline in process; HttpClient talks to any cluster.
export * from './client.ts';
export * from './informer.ts';
export * from './work-queue.ts';
export * from './http-client.ts';
export * from './shared-informers.ts';
export * from './trusted-certificates.ts';
export * from './leader-election.ts';
export * from './event-correlator.ts';
