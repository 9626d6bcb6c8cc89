// Request-targets as the handlers read them: requestUrl reads every target as the WHATWG URL parser
// does (it skips the parser only for plain ones), and parsed paths are shared, not changed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestPath, requestUrl } from './request-info.ts';

const targets = [
  '/api/v1/namespaces/default/pods',
  '/api/v1/namespaces/default/pods/',
  '/apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-client-side-apply&fieldValidation=Strict',
  '/api/v1/pods?labelSelector=app%3Dweb%2Ctier+in+(a,b)&limit=500',
  '/api/v1/namespaces/default/pods?',
  '/api/v1/namespaces/default/pods?watch=1&resourceVersion=0&timeoutSeconds=300#fragment',
  "/api/v1/namespaces/default/pods?fieldSelector=metadata.name='x'",
  '/api/v1/namespaces/default/pods?q=a b&c="d"&e=<f>&g=é',
  '/api/v1/namespaces/default/pods/%2e%2e',
  '/api/v1/namespaces/default/pods/../secrets',
  '/api/v1/namespaces/./default/pods',
  '/api/v1/namespaces/default/pods/..',
  '/api/v1/namespaces/default/pods/.hidden',
  '/api/v1/namespaces/default/pods/a..b',
  '//evil.example/api/v1/pods',
  '/api\\v1/pods',
  '/api/v1/namespaces/default/pods/web{1}',
  '/api/v1/namespaces/default/pods/wéb',
  '/api/v1//namespaces',
  '/',
  '',
  '*',
];

describe('requestUrl', () => {
  test('reads every request-target as new URL does', () => {
    for (const target of targets) {
      const expected = new URL(target, 'http://drydock.local');
      const got = requestUrl(target);
      assert.equal(got.pathname, expected.pathname, target);
      assert.equal(got.search, expected.search, target);
      assert.deepEqual([...got.searchParams], [...expected.searchParams], target);
    }
  });
});

describe('parseRequestPath', () => {
  test('answers a path it has parsed with the same target', () => {
    const first = parseRequestPath('/api/v1/namespaces/default/pods');
    assert.deepEqual(first, { kind: 'resource', target: { group: '', version: 'v1', namespace: 'default', resource: 'pods', name: '', subresource: '' } });
    assert.equal(parseRequestPath('/api/v1/namespaces/default/pods'), first);
  });

  test('parses each of many distinct paths as it did the first time', () => {
    for (let i = 0; i < 2000; i++) {
      const target = parseRequestPath(`/apis/apps/v1/namespaces/ns-${i}/deployments/web-${i}/scale`);
      assert.deepEqual(target, { kind: 'resource', target: { group: 'apps', version: 'v1', namespace: `ns-${i}`, resource: 'deployments', name: `web-${i}`, subresource: 'scale' } });
    }
  });
});
