// List with resourceVersion semantics, selection and limit/continue paging.
// Upstream: apiserver/pkg/storage/etcd3/store.go GetList, apiserver/pkg/storage/continue.go.
import type { ResourceDefinition } from '../api/index.ts';
import { badRequest, expired, tooLargeResourceVersion } from '../core/index.ts';
import type { KeyValue } from '../storage/index.ts';
import { StoreError } from '../storage/index.ts';
import type { ResourceStorage } from './resource-storage.ts';
import type { Selection } from './selection.ts';
import { storedObject, viewOf } from './stored-object.ts';
import { waitUntilFresh } from './wait-until-fresh.ts';
import { decodeContinue, encodeContinue } from './continue-token.ts';
import { readResourceVersion } from './resource-version.ts';

export interface ListRequest {
  namespace: string;
  selection: Selection;
  limit: number;
  continue: string;
  resourceVersion: string;
  resourceVersionMatch: string;
}

export interface ListPage {
  items: KeyValue[];
  revision: number;
  continue: string;
  remainingItemCount: number | undefined;
}

/** ValidateListOptions's words for a resourceVersion the versioner cannot read. */
function parseResourceVersion(text: string): number {
  const rv = readResourceVersion(text);
  if (typeof rv === 'object') throw badRequest(`invalid resource version: ${rv.invalid}`);
  return rv;
}

/**
 * How a list's resourceVersion reads (the table in "Semantics for get and list"): `exact` at that revision,
 * `minimum` the latest once the store has reached it, or neither (unset, or "0") the latest.
 */
function readRevision(request: ListRequest): { exact?: number; minimum?: number } {
  const { resourceVersion, resourceVersionMatch } = request;
  if (!resourceVersion || resourceVersion === '0') return {};
  const rv = parseResourceVersion(resourceVersion);
  // A paged list that names a revision without a match reads exactly there (the legacy form upstream
  // still serves from etcd: shouldDelegateList's "Legacy exact match").
  const legacyExact = !resourceVersionMatch && request.limit > 0;
  return resourceVersionMatch === 'Exact' || legacyExact ? { exact: rv } : { minimum: rv };
}

export async function listObjects(storage: ResourceStorage, def: ResourceDefinition, request: ListRequest): Promise<ListPage> {
  const prefix = storage.prefix(def, request.namespace);
  let atRevision: number | undefined;
  let after: string | undefined;
  let continueStart: string | undefined;
  // storage.ValidateListOptions reads a continue token before the resourceVersion, which it then refuses unread.
  if (request.continue) {
    const token = decodeContinue(request.continue);
    if (request.resourceVersion && request.resourceVersion !== '0') {
      throw badRequest('specifying resource version is not allowed when using continue');
    }
    atRevision = token.rv > 0 ? token.rv : undefined;
    continueStart = token.start;
    after = prefix + token.start;
  } else {
    const read = readRevision(request);
    atRevision = read.exact;
    if (read.minimum !== undefined) await waitUntilFresh(storage.store, storage.clock, read.minimum);
  }
  // etcd's ErrFutureRev, which the store answers as too large at once (kubernetes#132374), without a retry hint.
  if (atRevision !== undefined && atRevision > storage.store.revision()) throw tooLargeResourceVersion(atRevision, storage.store.revision(), 0);
  const items: KeyValue[] = [];
  const limit = request.limit;
  let revision = 0;
  let lastKey: string | undefined;
  let more = false;
  let remaining = 0;
  try {
    // With a selector a page is filled from several store pages, as upstream does.
    for (;;) {
      const want = limit > 0 ? Math.max(limit - items.length, request.selection.everything ? 0 : limit) : 0;
      const options: { limit?: number; after?: string; atRevision?: number } = {};
      if (want > 0) options.limit = want;
      if (after !== undefined) options.after = after;
      if (atRevision !== undefined) options.atRevision = atRevision;
      const page = await storage.store.list(prefix, options);
      revision = page.revision;
      atRevision = page.revision;
      for (const storedKv of page.items) {
        const kv = viewOf(def, storedKv);
        lastKey = kv.key;
        if (request.selection.everything || request.selection.matches(storedObject(kv))) items.push(kv);
        if (limit > 0 && items.length >= limit) break;
      }
      const stoppedEarly = lastKey !== undefined && page.items.length > 0 && lastKey !== page.items[page.items.length - 1]?.key;
      more = stoppedEarly || page.more;
      remaining = stoppedEarly ? page.remaining + 1 : page.remaining;
      if (!page.more || (limit > 0 && items.length >= limit)) break;
      after = lastKey;
    }
  } catch (error) {
    if (error instanceof StoreError && error.kind === 'compacted') {
      if (continueStart === undefined) throw expired(`too old resource version: ${request.resourceVersion} (${error.compactedRevision ?? 0})`);
      // handleCompactedErrorForPaging: the 410 carries a token that goes on from the same key at the latest revision.
      const gone = expired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.');
      gone.continueToken = encodeContinue(-1, continueStart);
      throw gone;
    }
    throw error;
  }
  const continueToken = more && limit > 0 && lastKey !== undefined ? encodeContinue(revision, lastKey.slice(prefix.length)) : '';
  return {
    items,
    revision,
    continue: continueToken,
    remainingItemCount: continueToken && request.selection.everything ? remaining : undefined,
  };
}
