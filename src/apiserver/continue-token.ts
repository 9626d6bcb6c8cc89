// A list's continue token as storage/continue.go writes and reads it: unpadded base64url of the JSON
// {"v":"meta.k8s.io/v1","rv":N,"start":"<key below the resource's prefix>"}. A negative rv (what a 410
// for a compacted token hands back) continues at the latest revision. Clients treat tokens as opaque;
// what is checked, and the words a bad one gets, are upstream's.
import { badRequest, cleanRootedPath, goJsonKind, goJsonSyntaxError } from '../core/index.ts';

export interface ContinueToken {
  /** The revision the list continues at; negative for the latest. */
  rv: number;
  /** The last key returned, below the prefix (drydock's tokens continue after it). */
  start: string;
}

export function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

/** DecodeContinue, refused as the list handler refuses it: `invalid continue token: continue key is not valid...`. */
export function decodeContinue(text: string): ContinueToken {
  const why = (detail: string): Error => badRequest(`invalid continue token: continue key is not valid${detail}`);
  const bad = text.search(/[^A-Za-z0-9_-]/);
  if (bad >= 0 || text.length % 4 === 1) throw why(`: illegal base64 data at input byte ${bad >= 0 ? bad : text.length - 1}`);
  const json = Buffer.from(text, 'base64url').toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(json) as unknown;
  } catch {
    throw why(`: ${goJsonSyntaxError(json) ?? 'unexpected end of JSON input'}`);
  }
  const token = readToken(value);
  if (typeof token === 'string') throw why(`: ${token}`);
  if (token.v !== 'meta.k8s.io/v1') throw why(`: server does not recognize this encoded version ${token.v}`);
  if (token.rv === 0) throw why(': incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (token.start === '') throw why(': encoded start key empty (version meta.k8s.io/v1)');
  // path.Clean keeps a token from ranging above the resource's own keys.
  const key = token.start.startsWith('/') ? token.start : `/${token.start}`;
  if (cleanRootedPath(key) !== key) throw why(`: ${token.start}`);
  return { rv: token.rv, start: key.slice(1) };
}

/** encoding/json's reading of the token into continueToken{v string; rv int64; start string}, or its error. */
function readToken(value: unknown): { v: string; rv: number; start: string } | string {
  const token = { v: '', rv: 0, start: '' };
  if (value === null) return token;
  if (typeof value !== 'object' || Array.isArray(value)) return `json: cannot unmarshal ${goJsonKind(value)} into Go value of type storage.continueToken`;
  for (const [name, field] of Object.entries(value)) {
    // Go matches a key to a field exactly or, failing that, without regard to case.
    const key = (['v', 'rv', 'start'] as const).find((f) => f === name) ?? (['v', 'rv', 'start'] as const).find((f) => f === name.toLowerCase());
    if (key === undefined || field === null) continue;
    if (key === 'rv') {
      if (typeof field !== 'number' || !Number.isSafeInteger(field)) {
        return `json: cannot unmarshal ${typeof field === 'number' ? `number ${String(field)}` : goJsonKind(field)} into Go struct field continueToken.rv of type int64`;
      }
      token.rv = field;
    } else {
      if (typeof field !== 'string') return `json: cannot unmarshal ${goJsonKind(field)} into Go struct field continueToken.${key} of type string`;
      token[key] = field;
    }
  }
  return token;
}
