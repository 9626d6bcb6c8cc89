// Reads and decodes request bodies: JSON, YAML and Kubernetes protobuf, with upstream's
// 3 MiB limit. Decode errors are 400s in upstream's words; nothing here throws otherwise.
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { ApiError, badRequest, goJsonKind, goJsonSyntaxError, jsonTooDeep, maxNestingDepth, requestEntityTooLarge, valueTooDeep, yamlTooDeep } from '../core/index.ts';
import type { BodyType } from './negotiation.ts';
import { decodeProtobufObject } from './protobuf/index.ts';
import { duplicateFields } from './duplicate-fields.ts';

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
      // Most bodies arrive in one chunk, which needs no copy.
      if (!failed) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
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

/**
 * A body that did not decode, with what the decoder upstream would have said (`detail`): Go's
 * encoding/json for JSON, "error converting YAML to JSON: ..." for YAML (in the yaml library's words,
 * not go-yaml's), the protobuf reader's for protobuf. Callers word the 400 as their handler upstream does.
 */
export class BodyDecodeError extends Error {
  readonly format: BodyType;
  readonly detail: string;
  constructor(format: BodyType, detail: string) {
    super(detail);
    this.format = format;
    this.detail = detail;
  }
}

/**
 * A DELETE's DeleteOptions body. Its handler passes the decoder's error on as it is, a 400 since 1.35
 * (kubernetes#133358): the version/kind peek's words for JSON that does not parse or is no object, the
 * YAML conversion's for YAML. `null` reads as no options.
 */
export function decodeOptionsBody(bytes: Buffer, type: BodyType): Record<string, unknown> {
  let value: unknown;
  try {
    value = decodeBodyValue(bytes, type);
  } catch (error) {
    if (!(error instanceof BodyDecodeError)) throw error;
    throw badRequest(versionKindFailure(error));
  }
  const unreadable = notAnObject(value);
  if (unreadable !== undefined) throw badRequest(unreadable);
  return (value ?? {}) as Record<string, unknown>;
}

/** The struct serializer/json/meta.go's Interpret reads a body's apiVersion and kind into, as Go prints its type. */
const findKindType = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
/** Interpret's words for a JSON body it could not read. */
const versionKindPrefix = "couldn't get version/kind; json parse error: ";

/** Why a body that is no JSON object has no readable kind, in Interpret's words; `null` reads as `{}`. */
export function notAnObject(value: unknown): string | undefined {
  if (value === null || (typeof value === 'object' && !Array.isArray(value))) return undefined;
  return `${versionKindPrefix}json: cannot unmarshal ${goJsonKind(value)} into Go value of type ${findKindType}`;
}

function versionKindFailure(error: BodyDecodeError): string {
  return error.format === 'json' ? `${versionKindPrefix}${error.detail}` : error.detail;
}

/** A JSON or YAML body already read as text, decoded; a failure in the "cannot be handled as" form of `what`. */
export function decodeText(text: string, type: Exclude<BodyType, 'protobuf'>, what: { kind: string; version: string }): unknown {
  if (text.length === 0) throw badRequest('the body of the request is empty');
  return asKindError(what, () => (type === 'json' ? parseJsonText(text) : parseYamlText(text)));
}

/**
 * A create or update body: a JSON or YAML one that does not decode, or is no object, fails where
 * upstream's fails, reading its apiVersion and kind (the serializer's Interpret, or YAMLToJSON before
 * it), so the 400 is transformDecodeError's for a body of no known kind. `null` reads as an empty object.
 * `text` is the body already read as UTF-8, when the caller has it.
 */
export function decodeObjectBody(bytes: Buffer, type: BodyType, what: { kind: string; version: string }, text?: string): Record<string, unknown> {
  if (bytes.length === 0) throw badRequest('the body of the request is empty');
  let value: unknown;
  try {
    value = decodeBodyValue(bytes, type, text);
  } catch (error) {
    if (!(error instanceof BodyDecodeError)) throw error;
    if (error.format === 'protobuf') throw decodeError(what, error.detail);
    throw unrecognizedObject(what.kind, versionKindFailure(error), bytes);
  }
  const unreadable = notAnObject(value);
  if (unreadable !== undefined) throw unrecognizedObject(what.kind, unreadable, bytes);
  return (value ?? {}) as Record<string, unknown>;
}

/** transformDecodeError's 400 for a body of no known kind: why, and the body's first 30 bytes. */
export function unrecognizedObject(kind: string, detail: string, bytes: Buffer): ApiError {
  return badRequest(`the object provided is unrecognized (must be of type ${kind}): ${detail} (${summarizeData(bytes)})`);
}

function decodeBodyValue(bytes: Buffer, type: BodyType, read?: string): unknown {
  if (type === 'protobuf') {
    const result = decodeProtobufObject(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (!result.ok) throw badRequest(result.message);
    // Go's protobuf runtime stops at its recursion limit with these words; here the limit is drydock's.
    if (valueTooDeep(result.object)) throw new BodyDecodeError('protobuf', 'proto: exceeded maximum recursion depth');
    return result.object;
  }
  const text = read ?? bytes.toString('utf8');
  return type === 'json' ? parseJsonText(text) : parseYamlText(text);
}

/**
 * JSON text as Go's encoding/json reads it: its value, or a BodyDecodeError in Go's words, for text
 * that is not JSON and for nesting past drydock's limit (Go's own is 10,000; nesting-depth.ts).
 */
export function parseJsonText(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new BodyDecodeError('json', goJsonSyntaxError(text) ?? jsonSyntaxMessage(error));
  }
  if (jsonTooDeep(text) !== undefined) throw new BodyDecodeError('json', goJsonSyntaxError(text) ?? 'exceeded max depth');
  return value;
}

function parseYamlText(text: string): unknown {
  const json = asJson(text);
  if (json.ok) return json.value;
  // go-yaml's words at its own limit (max_flow_level, max_indents), with drydock's limit.
  const line = yamlTooDeep(text);
  if (line !== undefined) throw new BodyDecodeError('yaml', `error converting YAML to JSON: yaml: line ${line}: exceeded max depth of ${maxNestingDepth}`);
  let value: unknown;
  try {
    value = parseYaml(text, { strict: true, uniqueKeys: true, version: '1.2' }) as unknown;
  } catch (error) {
    throw new BodyDecodeError('yaml', `error converting YAML to JSON: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  // An alias repeats its anchor's value where it stands, deeper than the text nests.
  if (valueTooDeep(value)) throw new BodyDecodeError('yaml', `error converting YAML to JSON: yaml: exceeded max depth of ${maxNestingDepth}`);
  return value;
}

/**
 * A YAML body that is JSON text (every server-side apply kubectl sends) read with JSON.parse: the
 * same value in a fiftieth of the yaml library's time (a pod's: ~3 against ~140 us). Text that does not
 * parse, nests too deep or repeats a key (which YAML refuses and JSON.parse lets the last one win)
 * goes to the yaml library, for its value or its error.
 */
function asJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const first = text.trimStart().charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) return { ok: false };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { ok: false };
  }
  if (jsonTooDeep(text) !== undefined || duplicateFields(text).length > 0) return { ok: false };
  return { ok: true, value };
}

function asKindError(what: { kind: string; version: string }, decode: () => unknown): unknown {
  try {
    return decode();
  } catch (error) {
    if (error instanceof BodyDecodeError) throw decodeError(what, error.detail);
    throw error;
  }
}

function decodeError(what: { kind: string; version: string }, detail: string): ApiError {
  return badRequest(`${what.kind} in version "${what.version}" cannot be handled as a ${what.kind}: ${detail}`);
}

/** summarizeData: a body that opens an object as its first 30 bytes of text, any other in hex. */
function summarizeData(bytes: Buffer, max = 30): string {
  const part = bytes.subarray(0, max);
  const shown = bytes[0] === 0x7b ? part.toString('utf8') : part.toString('hex');
  return bytes.length > max ? `${shown} ...` : shown;
}

/** V8's message, for the text Go's scanner takes but JSON.parse does not (none is known). */
function jsonSyntaxMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `json: ${message.replace(/^JSON\.parse: /, '')}`;
}
