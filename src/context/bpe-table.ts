import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  BPE_TABLE_FILE,
  BPE_TABLE_MAGIC,
  BPE_TABLE_VERSION,
  buildBpeTable,
  HEADER_WORDS,
  RANK_BITS,
} from './bpe-table-build.js';

/** o200k_base's ranks as typed-array views of one table (layout in bpe-table-build.ts). */
export interface BpeTable {
  /** Open-addressing slots: (hash high bits) | (rank + 1), 0 = empty; length is a power of two. */
  readonly slots: Uint32Array;
  /** The bytes of rank r are bytes[offsets[r], offsets[r + 1]). */
  readonly offsets: Uint32Array;
  readonly bytes: Uint8Array;
}

/** Views over a table's bytes, or undefined when they are not a complete table of this version. */
export function parseBpeTable(data: Uint8Array): BpeTable | undefined {
  if (data.byteLength < HEADER_WORDS * 4) return undefined;
  // Uint32 views need 4-byte alignment; a file read into a pooled buffer may not have it.
  const own = data.byteOffset % 4 === 0 ? data : data.slice();
  const header = new Uint32Array(own.buffer, own.byteOffset, HEADER_WORDS);
  const [magic, version, rankCount, slotCount, bytesLength, rankBits] = header;
  if (magic !== BPE_TABLE_MAGIC || version !== BPE_TABLE_VERSION || rankBits !== RANK_BITS) return undefined;
  const words = HEADER_WORDS + slotCount! + rankCount! + 1;
  if (own.byteLength !== words * 4 + bytesLength! || (slotCount! & (slotCount! - 1)) !== 0) return undefined;
  const slots = new Uint32Array(own.buffer, own.byteOffset + HEADER_WORDS * 4, slotCount);
  const offsets = new Uint32Array(
    own.buffer,
    own.byteOffset + (HEADER_WORDS + slotCount!) * 4,
    rankCount! + 1,
  );
  if (offsets[rankCount!] !== bytesLength) return undefined;
  return { slots, offsets, bytes: own.subarray(words * 4) };
}

/** Where the build writes the table (dist/tokenizer/), seen from the bundle or from a chunk. */
function builtTableFile(): string | undefined {
  for (const rel of ['./tokenizer/', '../tokenizer/']) {
    const file = fileURLToPath(new URL(`${rel}${BPE_TABLE_FILE}`, import.meta.url));
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The table the build wrote, else (running from source, or a file of another version) one built in memory. */
export async function loadBpeTable(): Promise<BpeTable> {
  const file = builtTableFile();
  const built = file ? parseBpeTable(readFileSync(file)) : undefined;
  return built ?? (await buildBpeTableFromRanks());
}

/** The table built from gpt-tokenizer's own ranks: correct but slow (~0.3 s to import and hash them). */
export async function buildBpeTableFromRanks(): Promise<BpeTable> {
  const { default: ranks } = await import('gpt-tokenizer/bpeRanks/o200k_base');
  const table = parseBpeTable(buildBpeTable(ranks));
  if (!table) throw new Error('the table built from gpt-tokenizer ranks does not parse');
  return table;
}
