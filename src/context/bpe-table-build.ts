// The o200k_base rank table as one binary file, so that loading it is one read and a few typed-array views.
// This module has no imports: scripts/tokenizer-table.mjs bundles it at build time, and bpe-table.ts runs it
// when the built file is missing, so both produce the very same bytes.
//
// Layout (little-endian Uint32 words, then bytes):
//   header   HEADER_WORDS words: magic, version, rankCount, slotCount, bytesLength, RANK_BITS, keyCount, 0
//   slots    slotCount words: open addressing (linear probing) on hashBytes(token); 0 = empty, else
//            (hash >>> RANK_BITS) << RANK_BITS | (rank + 1), the high bits rejecting most probes without a compare
//   offsets  rankCount + 1 words: the bytes of rank r are bytes[offsets[r], offsets[r + 1])
//   bytes    bytesLength bytes: every rank's bytes, concatenated in rank order

/** The file the build writes under dist/tokenizer/ and the runtime reads. */
export const BPE_TABLE_FILE = 'o200k_base.bin';
/** "HBPE" read as a little-endian word; a big-endian reader sees another value and rejects the file. */
export const BPE_TABLE_MAGIC = 0x45504248;
/** Bumped with any change of layout or hash, so an older file is rebuilt in memory rather than misread. */
export const BPE_TABLE_VERSION = 1;
/** Words before the slots. */
export const HEADER_WORDS = 8;
/** Bits of a slot holding rank + 1; the rest holds the key's hash bits above them. */
export const RANK_BITS = 18;
/** Mask of rank + 1 in a slot. */
export const RANK_MASK = (1 << RANK_BITS) - 1;

/** FNV-1a (32 bits) of bytes[start, end): the table's key hash; bpe-count.ts inlines the same steps. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

const BOM = '\ufeff';
// With the u flag a surrogate pair is one code point, so this matches lone surrogates only.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * The table's bytes from gpt-tokenizer's raw ranks (index = rank; a string, or the byte array of a token that
 * is not valid UTF-8). Only keys gpt-tokenizer can find are hashed, so one byte-keyed lookup answers as its
 * string map and binary search do together; shapes that would break that equivalence throw.
 */
export function buildBpeTable(ranks: ReadonlyArray<string | readonly number[]>): Uint8Array {
  const rankCount = ranks.length;
  if (rankCount + 1 > RANK_MASK) throw new Error(`${rankCount} ranks do not fit ${RANK_BITS} bits`);
  const encoder = new TextEncoder();
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let room = 0;
  // forEach skips holes, as gpt-tokenizer's own indexing does.
  ranks.forEach((value) => {
    room += typeof value === 'string' ? value.length * 3 : value.length;
  });
  // Token bytes in rank order, then the table around them; holes in ranks get no bytes.
  const tokenBytes = new Uint8Array(room);
  const tokenOffsets = new Uint32Array(rankCount + 1);
  const findable = new Uint8Array(rankCount);
  let bytesLength = 0;
  let keyCount = 0;
  for (let rank = 0; rank < rankCount; rank++) {
    tokenOffsets[rank] = bytesLength;
    if (!(rank in ranks)) continue;
    const value = ranks[rank]!;
    if (typeof value === 'string') {
      // gpt-tokenizer looks strings up as JS strings: one with a lone surrogate (which does not survive
      // encoding) or a leading BOM would be found by a whole-piece lookup but not as bytes.
      if (LONE_SURROGATE.test(value) || value.startsWith(BOM))
        throw new Error(`rank ${rank}: unsupported string token ${JSON.stringify(value)}`);
      bytesLength += encoder.encodeInto(value, tokenBytes.subarray(bytesLength)).written;
      findable[rank] = 1;
    } else {
      const bytes = Uint8Array.from(value);
      tokenBytes.set(bytes, bytesLength);
      bytesLength += bytes.length;
      // gpt-tokenizer decodes valid UTF-8 bytes to a string (dropping a leading BOM) before looking them up,
      // so a byte-array token that is valid UTF-8 (the BOM-prefixed ones) is never found.
      try {
        strict.decode(bytes);
      } catch {
        findable[rank] = 1;
      }
    }
    keyCount += findable[rank]!;
  }
  tokenOffsets[rankCount] = bytesLength;
  let slotCount = 1;
  while (slotCount < keyCount * 2) slotCount *= 2;
  const byteStart = (HEADER_WORDS + slotCount + rankCount + 1) * 4;
  const out = new Uint8Array(byteStart + bytesLength);
  const words = new Uint32Array(out.buffer, 0, byteStart / 4);
  words.set([BPE_TABLE_MAGIC, BPE_TABLE_VERSION, rankCount, slotCount, bytesLength, RANK_BITS, keyCount, 0]);
  words.set(tokenOffsets, HEADER_WORDS + slotCount);
  out.set(tokenBytes.subarray(0, bytesLength), byteStart);
  const slots = words.subarray(HEADER_WORDS, HEADER_WORDS + slotCount);
  const bytes = out.subarray(byteStart);
  for (let rank = 0; rank < rankCount; rank++) if (findable[rank]) insert(slots, tokenOffsets, bytes, rank);
  return out;
}

/** Puts one rank's key into the slots; a key already there means two ranks share bytes, which no lookup tells. */
function insert(slots: Uint32Array, offsets: Uint32Array, bytes: Uint8Array, rank: number): void {
  const start = offsets[rank]!;
  const length = offsets[rank + 1]! - start;
  const h = hashBytes(bytes, start, start + length);
  const mask = slots.length - 1;
  for (let i = h & mask; ; i = (i + 1) & mask) {
    const slot = slots[i]!;
    if (slot === 0) {
      slots[i] = (((h >>> RANK_BITS) << RANK_BITS) | (rank + 1)) >>> 0;
      return;
    }
    const other = (slot & RANK_MASK) - 1;
    const o = offsets[other]!;
    if (offsets[other + 1]! - o !== length) continue;
    let k = 0;
    while (k < length && bytes[o + k] === bytes[start + k]) k++;
    if (k === length) throw new Error(`ranks ${other} and ${rank} have the same bytes`);
  }
}
