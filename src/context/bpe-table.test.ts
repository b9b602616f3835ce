import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ranks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { describe, expect, it } from 'vitest';
import { parseBpeTable } from './bpe-table.js';
import { BPE_TABLE_FILE, BPE_TABLE_VERSION, buildBpeTable } from './bpe-table-build.js';

const distFile = join(import.meta.dirname, '..', '..', 'dist', 'tokenizer', BPE_TABLE_FILE);
const table = buildBpeTable(ranks);

describe('BPE table', () => {
  it.skipIf(!existsSync(distFile))(
    'is what the build wrote to dist/tokenizer (else run npm run build)',
    () => {
      expect(Buffer.compare(readFileSync(distFile), table)).toBe(0);
    },
  );

  it('holds every rank, half-empty slots, and the bytes of each rank in rank order', () => {
    const parsed = parseBpeTable(table)!;
    expect(parsed.offsets.length).toBe(ranks.length + 1);
    const used = parsed.slots.reduce((n, s) => n + (s === 0 ? 0 : 1), 0);
    // The 9 tokens gpt-tokenizer can never find (valid UTF-8 stored as bytes, all BOM-prefixed) are left out.
    expect(used).toBe(ranks.length - 9);
    expect(used / parsed.slots.length).toBeLessThanOrEqual(0.5);
    const decode = (r: number) =>
      Buffer.from(parsed.bytes.subarray(parsed.offsets[r], parsed.offsets[r + 1]));
    expect(decode(0).toString()).toBe('!');
    expect(decode(ranks.length - 1)).toEqual(Buffer.from(new TextEncoder().encode(String(ranks.at(-1)))));
  });

  it('parses from an unaligned buffer and rejects another version, a wrong magic or a cut file', () => {
    const unaligned = new Uint8Array(table.length + 1).subarray(1);
    unaligned.set(table);
    expect(parseBpeTable(unaligned)?.offsets.length).toBe(ranks.length + 1);
    const other = table.slice();
    new DataView(other.buffer).setUint32(4, BPE_TABLE_VERSION + 1, true);
    expect(parseBpeTable(other)).toBeUndefined();
    const magic = table.slice();
    magic[0] = 0;
    expect(parseBpeTable(magic)).toBeUndefined();
    expect(parseBpeTable(table.subarray(0, table.length - 1))).toBeUndefined();
    expect(parseBpeTable(table.subarray(0, 8))).toBeUndefined();
  });

  it('leaves ranks with no token (holes) empty', () => {
    const sparse: string[] = ['a', 'b'];
    sparse[3] = 'cd';
    const parsed = parseBpeTable(buildBpeTable(sparse))!;
    expect([...parsed.offsets]).toEqual([0, 1, 2, 2, 4]);
  });

  it('refuses ranks it could not answer exactly as gpt-tokenizer', () => {
    expect(() => buildBpeTable(['a', 'b', 'a'])).toThrow(/same bytes/);
    expect(() => buildBpeTable(['a', '\ud800'])).toThrow(/unsupported/);
    expect(() => buildBpeTable(['a', '\ufeffx'])).toThrow(/unsupported/);
  });
});
