// A kind's own follow-up to its stored writes, done within the write's request before it is
// answered, as upstream's REST storage for that kind does around the generic store (the Service
// registry allocating and releasing its cluster IPs' records).
import type { KubeObject } from '../core/index.ts';
import type { ApiServer } from './server.ts';
import { serviceIPRecords } from './service-ip-records.ts';

export interface WriteFollower {
  readonly group: string;
  readonly resource: string;
  /** After a stored create (`before` absent), update or patch, or a delete (`after` absent). */
  follow(server: ApiServer, before: KubeObject | undefined, after: KubeObject | undefined): Promise<void>;
}

const builtinWriteFollowers: readonly WriteFollower[] = [serviceIPRecords];

/** The follower of `def`'s writes, if its kind has one. */
export function writeFollowerOf(def: { group: string; resource: string }): WriteFollower | undefined {
  for (const follower of builtinWriteFollowers) if (follower.group === def.group && follower.resource === def.resource) return follower;
  return undefined;
}
