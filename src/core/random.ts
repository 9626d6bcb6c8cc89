// Random: the only source of randomness (uids, generateName suffixes, tokens, jitter).
// Seeded for tests and simulations; crypto-backed by default.
import { randomBytes } from 'node:crypto';

export interface Random {
  /** A float in [0, 1). */
  float(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  uuid(): string;
  /** Hex string of `bytes` random bytes. */
  hex(bytes: number): string;
}

const hexOfByte: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** An RFC 4122 version 4 UUID from the 16 random bytes at `at` (read, not changed): one per created object. */
function uuidFrom(bytes: Uint8Array, at = 0): string {
  const h = (i: number): string => hexOfByte[bytes[at + i] ?? 0] ?? '00';
  const version = hexOfByte[((bytes[at + 6] ?? 0) & 0x0f) | 0x40] ?? '40';
  const variant = hexOfByte[((bytes[at + 8] ?? 0) & 0x3f) | 0x80] ?? '80';
  return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${version}${h(7)}-${variant}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
}

/** Draws from a pooled buffer: one randomBytes call per 4 KiB instead of one per value. */
export class CryptoRandom implements Random {
  #pool = Buffer.alloc(0);
  #offset = 0;
  /** Makes sure the pool holds `count` more bytes. */
  #reserve(count: number): void {
    if (this.#offset + count > this.#pool.length) {
      this.#pool = randomBytes(Math.max(4096, count));
      this.#offset = 0;
    }
  }
  #take(count: number): Buffer {
    this.#reserve(count);
    const out = this.#pool.subarray(this.#offset, this.#offset + count);
    this.#offset += count;
    return out;
  }
  float(): number {
    // Read in place: a subarray per value is an allocation on every generated name's characters.
    this.#reserve(6);
    const value = this.#pool.readUIntBE(this.#offset, 6);
    this.#offset += 6;
    return value / 2 ** 48;
  }
  int(n: number): number {
    return Math.floor(this.float() * n);
  }
  uuid(): string {
    this.#reserve(16);
    const at = this.#offset;
    this.#offset += 16;
    return uuidFrom(this.#pool, at);
  }
  hex(bytes: number): string {
    return this.#take(bytes).toString('hex');
  }
}

/** mulberry32: small, fast and good enough for reproducible simulations. */
export class SeededRandom implements Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  float(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.float() * n);
  }
  #bytes(count: number): Uint8Array {
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i++) out[i] = this.int(256);
    return out;
  }
  uuid(): string {
    return uuidFrom(this.#bytes(16));
  }
  hex(bytes: number): string {
    return Buffer.from(this.#bytes(bytes)).toString('hex');
  }
}

// Upstream: apiserver/pkg/storage/names/generate.go and util/rand (no vowels, no 0/1/3).
const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const maxGeneratedNameLength = 63 - 5;

export function randomString(random: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += nameAlphabet[random.int(nameAlphabet.length)];
  return out;
}

export function generateName(random: Random, base: string): string {
  const prefix = base.length > maxGeneratedNameLength ? base.slice(0, maxGeneratedNameLength) : base;
  return prefix + randomString(random, 5);
}
