/**
 * Symbolic character sets over UTF-16 code units (what a JS RegExp without the `u` flag reads): sorted, disjoint,
 * non-adjacent inclusive ranges stored flat as [lo0, hi0, lo1, hi1, ...]. Automata label their edges with these,
 * so no operation ever enumerates the 65,536 code units.
 */
export type CharSet = readonly number[];

export const MAX_CODE = 0xffff;
export const EMPTY_SET: CharSet = [];
export const ANY_SET: CharSet = [0, MAX_CODE];

/** The set of the given ranges (any order, overlapping allowed). */
export function charSetOf(ranges: ReadonlyArray<readonly [number, number]>): CharSet {
  const sorted = ranges.filter(([lo, hi]) => lo <= hi).sort((x, y) => x[0] - y[0]);
  const out: number[] = [];
  for (const [lo, hi] of sorted) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]! + 1) out[last] = Math.max(out[last]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

export function singleChar(code: number): CharSet {
  return [code, code];
}

export function unionSets(a: CharSet, b: CharSet): CharSet {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < a.length; i += 2) pairs.push([a[i]!, a[i + 1]!]);
  for (let i = 0; i < b.length; i += 2) pairs.push([b[i]!, b[i + 1]!]);
  return charSetOf(pairs);
}

export function intersectSets(a: CharSet, b: CharSet): CharSet {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i]!, b[j]!);
    const hi = Math.min(a[i + 1]!, b[j + 1]!);
    if (lo <= hi) out.push(lo, hi);
    if (a[i + 1]! < b[j + 1]!) i += 2;
    else j += 2;
  }
  return out;
}

export function complementSet(a: CharSet): CharSet {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < a.length; i += 2) {
    if (a[i]! > next) out.push(next, a[i]! - 1);
    next = a[i + 1]! + 1;
  }
  if (next <= MAX_CODE) out.push(next, MAX_CODE);
  return out;
}

export function subtractSets(a: CharSet, b: CharSet): CharSet {
  return intersectSets(a, complementSet(b));
}

/** Binary search: is `code` in the set? */
export function setHas(set: CharSet, code: number): boolean {
  let lo = 0;
  let hi = set.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (code < set[2 * mid]!) hi = mid - 1;
    else if (code > set[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

export function setsEqual(a: CharSet, b: CharSet): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * The points where membership may change across the given sets: each range contributes its `lo` and `hi + 1`.
 * Consecutive points delimit elementary intervals inside which every given set is constant.
 */
export function boundariesOf(sets: Iterable<CharSet>): number[] {
  const points = new Set<number>([0]);
  for (const set of sets) {
    for (let i = 0; i < set.length; i += 2) {
      points.add(set[i]!);
      if (set[i + 1]! < MAX_CODE) points.add(set[i + 1]! + 1);
    }
  }
  return [...points].sort((x, y) => x - y);
}
