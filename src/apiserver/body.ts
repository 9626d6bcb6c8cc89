// Reads and decodes request bodies: JSON, YAML and Kubernetes protobuf, with upstream's
// 3 MiB limit. Decode errors are 400s in upstream's words; nothing here throws otherwise.
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { ApiError, badRequest, jsonTooDeep, maxNestingDepth, requestEntityTooLarge, valueTooDeep, yamlTooDeep } from '../core/index.ts';
import type { BodyType } from './negotiation.ts';
import { decodeProtobufObject } from './protobuf/index.ts';

export const maxRequestBodyBytes = 3 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > maxRequestBodyBytes) {
        failed = true;
        reject(requestEntityTooLarge(`limit is ${maxRequestBodyBytes}`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      if (!failed) reject(error);
    });
    // A request that waited for a turn (short-turns.ts) may have lost its client before these
    // listeners were attached: its 'error' and 'close' are gone, so settle here instead of never.
    const closedEarly = (): Error => new Error('the client closed the connection before sending the whole body');
    if (!req.complete && (req.destroyed || req.socket?.destroyed === true)) reject(closedEarly());
    req.once('close', () => {
      if (!failed && !req.complete) reject(closedEarly());
    });
  });
}

/** Decodes a body into a JSON value; `what` names the expected kind for error messages. */
export function decodeBody(bytes: Buffer, type: BodyType, what: { kind: string; version: string }): unknown {
  if (bytes.length === 0) throw badRequest('the body of the request is empty');
  if (type === 'protobuf') {
    const result = decodeProtobufObject(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (!result.ok) throw badRequest(result.message);
    // Go's protobuf runtime stops at its recursion limit with these words; here the limit is drydock's.
    if (valueTooDeep(result.object)) throw decodeError(what, 'proto: exceeded maximum recursion depth');
    return result.object;
  }
  return decodeText(bytes.toString('utf8'), type, what);
}

/** decodeBody for a JSON or YAML body already read as text. */
export function decodeText(text: string, type: Exclude<BodyType, 'protobuf'>, what: { kind: string; version: string }): unknown {
  if (text.length === 0) throw badRequest('the body of the request is empty');
  if (type === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch (error) {
      throw decodeError(what, jsonSyntaxMessage(error));
    }
    // Go's scanner's words at its own limit (scanner.go pushParseState).
    const bracket = jsonTooDeep(text);
    if (bracket !== undefined) throw decodeError(what, `invalid character '${bracket}' exceeded max depth`);
    return value;
  }
  // go-yaml's words at its own limit (max_flow_level, max_indents), with drydock's limit.
  const line = yamlTooDeep(text);
  if (line !== undefined) throw decodeError(what, `error converting YAML to JSON: yaml: line ${line}: exceeded max depth of ${maxNestingDepth}`);
  let value: unknown;
  try {
    value = parseYaml(text, { strict: true, uniqueKeys: true, version: '1.2' }) as unknown;
  } catch (error) {
    throw decodeError(what, `error converting YAML to JSON: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  // An alias repeats its anchor's value where it stands, deeper than the text nests.
  if (valueTooDeep(value)) throw decodeError(what, `error converting YAML to JSON: yaml: exceeded max depth of ${maxNestingDepth}`);
  return value;
}

function decodeError(what: { kind: string; version: string }, detail: string): ApiError {
  return badRequest(`${what.kind} in version "${what.version}" cannot be handled as a ${what.kind}: ${detail}`);
}

function jsonSyntaxMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `json: ${message.replace(/^JSON\.parse: /, '')}`;
}
