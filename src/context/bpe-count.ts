// Token counting with o200k_base, equal to gpt-tokenizer's countTokens(text, { disallowedSpecial: new Set() }):
// special-token text such as `<|endoftext|>` is split and counted as plain text there, and so it is here.
// The split pattern is gpt-tokenizer's own (a tiny module that does not load the ranks).
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { asciiPieceEnd } from './bpe-ascii-split.js';
import { mergeCount, NO_RANK } from './bpe-merge.js';
import type { BpeTable } from './bpe-table.js';
import { RANK_BITS, RANK_MASK } from './bpe-table-build.js';

/** Counts tokens of text; `within` returns false as soon as the count exceeds `limit`, else the count. */
export interface BpeCounter {
  count(text: string): number;
  within(text: string, limit: number): number | false;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Pieces that needed merges, remembered per process; cleared when full rather than tracked per entry. */
const MERGED_LIMIT = 50_000;

/** A counter over the table; it keeps scratch buffers, so one counter serves one thread at a time. */
export function createBpeCounter(table: BpeTable): BpeCounter {
  const { slots, offsets, bytes: tokens } = table;
  const mask = slots.length - 1;
  // Pieces are matched in place with a sticky test, so a piece becomes a string only when it needs merges.
  const sticky = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'uy');
  const anywhere = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu');
  const merged = new Map<string, number>();
  let buf = new Uint8Array(1024);
  let pieceLength = 0;
  // Set by encode: the piece's hash, and whether it had no lone surrogate.
  let pieceHash = 0;
  let wellFormed = true;

  /** The rank of buf[a, c) with hash h, or -1. */
  function find(a: number, c: number, h: number): number {
    const tag = h >>> RANK_BITS;
    const length = c - a;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const slot = slots[i]!;
      if (slot === 0) return -1;
      if (slot >>> RANK_BITS !== tag) continue;
      const rank = (slot & RANK_MASK) - 1;
      const o = offsets[rank]!;
      if (offsets[rank + 1]! - o !== length) continue;
      let k = 0;
      while (k < length && tokens[o + k] === buf[a + k]) k++;
      if (k === length) return rank;
    }
  }

  /** The rank of the pair buf[a, c) of the piece being merged, or NO_RANK. */
  function pairRank(a: number, c: number): number {
    const length = pieceLength;
    // gpt-tokenizer decodes a pair that is valid UTF-8 with a TextDecoder, which drops a leading BOM, and
    // looks the rest up. Piece bytes are valid UTF-8, so a pair is valid when it ends on a character boundary.
    if (c - a >= 3 && buf[a] === 0xef && buf[a + 1] === 0xbb && buf[a + 2] === 0xbf) {
      if (c === length || (buf[c]! & 0xc0) !== 0x80) a += 3;
      if (a === c) return NO_RANK;
    }
    let h = FNV_OFFSET;
    for (let k = a; k < c; k++) h = Math.imul(h ^ buf[k]!, FNV_PRIME);
    const rank = find(a, c, h >>> 0);
    return rank < 0 ? NO_RANK : rank;
  }

  /** UTF-8 of text[s, e) into buf as TextEncoder writes it (a lone surrogate becomes U+FFFD); its length. */
  function encode(text: string, s: number, e: number): number {
    if (buf.length < (e - s) * 3) buf = new Uint8Array(Math.max((e - s) * 3, buf.length * 2));
    const b = buf;
    let n = 0;
    let h = FNV_OFFSET;
    wellFormed = true;
    for (let i = s; i < e; i++) {
      let c = text.charCodeAt(i);
      if (c < 0x80) {
        b[n++] = c;
        h = Math.imul(h ^ c, FNV_PRIME);
        continue;
      }
      if (c < 0x800) {
        b[n] = 0xc0 | (c >> 6);
        b[n + 1] = 0x80 | (c & 0x3f);
      } else if (c < 0xd800 || c > 0xdfff) {
        b[n] = 0xe0 | (c >> 12);
        b[n + 1] = 0x80 | ((c >> 6) & 0x3f);
        b[n + 2] = 0x80 | (c & 0x3f);
      } else {
        const next = i + 1 < e ? text.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          b[n] = 0xf0 | (c >> 18);
          b[n + 1] = 0x80 | ((c >> 12) & 0x3f);
          b[n + 2] = 0x80 | ((c >> 6) & 0x3f);
          b[n + 3] = 0x80 | (c & 0x3f);
        } else {
          wellFormed = false;
          b[n] = 0xef;
          b[n + 1] = 0xbf;
          b[n + 2] = 0xbd;
        }
      }
      const end = b[n]! >= 0xf0 ? n + 4 : b[n]! >= 0xe0 ? n + 3 : n + 2;
      for (; n < end; n++) h = Math.imul(h ^ b[n]!, FNV_PRIME);
    }
    pieceHash = h >>> 0;
    return n;
  }

  /** Tokens of the piece text[s, e): one when the whole piece is a token, else its merge. */
  function pieceCount(text: string, s: number, e: number): number {
    if (e - s === 1 && text.charCodeAt(s) < 0x80) return 1;
    const length = encode(text, s, e);
    // gpt-tokenizer looks a whole piece up as a string, which never matches one with a lone surrogate.
    if (wellFormed && find(0, length, pieceHash) >= 0) return 1;
    const key = text.slice(s, e);
    let n = merged.get(key);
    if (n === undefined) {
      pieceLength = length;
      n = mergeCount(length, pairRank);
      if (merged.size >= MERGED_LIMIT) merged.clear();
      merged.set(key, n);
    }
    return n;
  }

  function scan(text: string, limit: number): number | false {
    let count = 0;
    let pos = 0;
    while (pos < text.length) {
      let s = pos;
      // ASCII is split by hand; the regex decides wherever a non-ASCII character takes part.
      let e = asciiPieceEnd(text, pos);
      if (e < 0) {
        sticky.lastIndex = pos;
        if (sticky.test(text)) e = sticky.lastIndex;
        else {
          // Every character starts a match of this pattern; were one not to, matchAll would skip it, as here.
          anywhere.lastIndex = pos;
          const m = anywhere.exec(text);
          if (!m) break;
          s = m.index;
          e = anywhere.lastIndex;
        }
      }
      count += pieceCount(text, s, e);
      if (count > limit) return false;
      pos = e;
    }
    return count;
  }

  return {
    count: (text) => scan(text, Number.POSITIVE_INFINITY) as number,
    within: (text, limit) => scan(text, limit),
  };
}
