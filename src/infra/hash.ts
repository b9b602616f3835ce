import type * as Crypto from 'node:crypto';

/** node:crypto, loaded on first use: commands answered from a cached manifest never need it. */
function crypto(): typeof Crypto {
  return process.getBuiltinModule('node:crypto');
}

/** SHA-256 hex digest of a string or bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return crypto().createHash('sha256').update(data).digest('hex');
}

/** `bytes` random bytes as hex, for names that must not collide (temp files, ids, lock tokens). */
export function randomHex(bytes: number): string {
  return crypto().randomBytes(bytes).toString('hex');
}

/**
 * A 64-bit FNV-1a digest of a string as 16 hex characters: a cheap, stable key for file names where a
 * collision costs nothing but a cache miss.
 */
export function fnv1a64Hex(text: string): string {
  // Two 32-bit lanes with different offsets stand in for one 64-bit state (no BigInt on a hot path).
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
