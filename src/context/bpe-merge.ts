// Byte-pair merging of one piece, counting the parts: the adjacent pair of lowest rank merges (leftmost on
// ties) until no pair is a token, as in gpt-tokenizer's bytePairMerge, which returns one token per part.

/** Rank of a pair spanning bytes [a, c) of the piece, or NO_RANK when that span is not a token. */
export type PairRank = (a: number, c: number) => number;

/** Larger than every rank. */
export const NO_RANK = 0x7fffffff;

/** Working arrays for pieces of up to `capacity` bytes. */
interface Scratch {
  capacity: number;
  next: Int32Array;
  prev: Int32Array;
  heapKey: Float64Array;
  heapEnd: Int32Array;
}

function allocate(capacity: number): Scratch {
  // Each merge pushes at most two pairs: at most 3 * capacity entries are ever in the heap.
  return {
    capacity,
    next: new Int32Array(capacity + 1),
    prev: new Int32Array(capacity + 1),
    heapKey: new Float64Array(capacity * 3),
    heapEnd: new Int32Array(capacity * 3),
  };
}

// Shared by every call (merging never re-enters itself); a longer piece gets arrays of its own, so that one
// huge piece does not keep megabytes alive.
const SCRATCH_MAX = 4096;
let shared = allocate(256);
const SHIFT = 2 ** 32;

/**
 * The number of tokens a piece of `length` bytes (length >= 1) merges into. gpt-tokenizer rescans every pair
 * after each merge (n^2 on long pieces); here pairs wait in a heap keyed by (rank, start), whose minimum is the
 * same choice: lowest rank, leftmost on ties. Parts are a linked list of start offsets; an entry whose part is
 * gone or whose span has grown since is stale (spans only grow, so a stale span never comes back).
 */
export function mergeCount(length: number, pairRank: PairRank): number {
  if (length > shared.capacity && length <= SCRATCH_MAX) shared = allocate(SCRATCH_MAX);
  const { next, prev, heapKey, heapEnd } = length <= shared.capacity ? shared : allocate(length);
  let size = 0;
  const push = (rank: number, start: number, end: number): void => {
    if (rank === NO_RANK) return;
    const key = rank * SHIFT + start;
    let i = size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heapKey[parent]! <= key) break;
      heapKey[i] = heapKey[parent]!;
      heapEnd[i] = heapEnd[parent]!;
      i = parent;
    }
    heapKey[i] = key;
    heapEnd[i] = end;
  };
  const popInto = (): void => {
    // Moves the last entry down from the root; the caller has read the root already.
    const key = heapKey[--size]!;
    const end = heapEnd[size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && heapKey[child + 1]! < heapKey[child]!) child++;
      if (heapKey[child]! >= key) break;
      heapKey[i] = heapKey[child]!;
      heapEnd[i] = heapEnd[child]!;
      i = child;
    }
    heapKey[i] = key;
    heapEnd[i] = end;
  };
  // next[p] of a live part p is the start of the part after it (length for the last); prev[p] is -1 for the first.
  for (let p = 0; p < length; p++) {
    next[p] = p + 1;
    prev[p] = p - 1;
  }
  next[length] = length;
  for (let p = 0; p + 2 <= length; p++) push(pairRank(p, p + 2), p, p + 2);
  let parts = length;
  while (size > 0) {
    const key = heapKey[0]!;
    const end = heapEnd[0]!;
    popInto();
    const p = key % SHIFT;
    const q = next[p]!;
    // Stale: p was merged into its left neighbour (next[p] is then -1), or the pair starting at p has grown.
    if (q < 0 || q >= length || next[q] !== end) continue;
    next[p] = end;
    next[q] = -1;
    if (end < length) prev[end] = p;
    parts--;
    if (end < length) push(pairRank(p, next[end]!), p, next[end]!);
    const before = prev[p]!;
    if (before >= 0) push(pairRank(before, end), before, end);
  }
  return parts;
}
