import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeCount, NO_RANK, type PairRank } from './bpe-merge.js';

/** gpt-tokenizer's bytePairMerge loop, verbatim in spirit: rescan for the lowest rank, leftmost on ties. */
function referenceCount(length: number, pairRank: PairRank): number {
  const starts = Array.from({ length: length + 1 }, (_, i) => i);
  const rankAt = (i: number) => (i + 2 < starts.length ? pairRank(starts[i]!, starts[i + 2]!) : NO_RANK);
  const ranks = starts.map((_, i) => rankAt(i));
  while (starts.length > 1) {
    let best = NO_RANK;
    let at = -1;
    for (let i = 0; i < ranks.length - 1; i++) {
      if (ranks[i]! < best) {
        best = ranks[i]!;
        at = i;
      }
    }
    if (at < 0) break;
    starts.splice(at + 1, 1);
    ranks.splice(at, 1);
    ranks[at] = rankAt(at);
    if (at > 0) ranks[at - 1] = rankAt(at - 1);
  }
  return starts.length - 1;
}

/** Ranks that depend only on a span's content, as real ones do; some spans are not tokens, some ranks tie. */
function contentRanks(bytes: number[], seed: number, tokenShare: number): PairRank {
  return (a, c) => {
    let h = seed | 0;
    for (let i = a; i < c; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    h = (h ^ (h >>> 13)) >>> 0;
    return h % 100 < tokenShare ? h % 50 : NO_RANK;
  };
}

describe('mergeCount', () => {
  it('merges like the rescanning loop it replaces, ties and unmergeable pairs included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 80 }),
        fc.integer(),
        fc.integer({ min: 0, max: 100 }),
        (bytes, seed, share) => {
          const rank = contentRanks(bytes, seed, share);
          expect(mergeCount(bytes.length, rank)).toBe(referenceCount(bytes.length, rank));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('gives one part per byte when no pair is a token, and one part when every pair is', () => {
    expect(mergeCount(5, () => NO_RANK)).toBe(5);
    expect(mergeCount(1, () => 0)).toBe(1);
    expect(mergeCount(7, () => 0)).toBe(1);
  });
});
