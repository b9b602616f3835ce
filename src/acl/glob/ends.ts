import type { Automaton } from './automaton.js';
import { type CharSet, intersectSets, singleChar, subtractSets, unionSets } from './char-set.js';
import { SLASH } from './real-path.js';

/** Positions from each end summarized per pattern: enough to tell `*.rs` from `*.{ts,tsx}` in a few intersections. */
const DEPTH = 8;
const JUST_SLASH = singleChar(SLASH);

/**
 * What every real path a pattern matches holds near its ends: `head[k]` is a superset of the characters such a path
 * can have at position k from the start, `tail[k]` the same from the end; each list stops before a position that
 * some matched path is too short to have. Two patterns whose sets at one position are disjoint share no path: the
 * overlap search is skipped for them (a sound shortcut: it never says "disjoint" wrongly).
 */
export interface Ends {
  head: CharSet[];
  tail: CharSet[];
}

type Step = (s: number) => ReadonlyArray<{ set: CharSet; to: number }>;

/** Layer by layer from `start` along `next`: the union of the edge sets crossed at each depth. */
function layers(start: number[], next: Step, stopAt: (s: number) => boolean): CharSet[] {
  const out: CharSet[] = [];
  let layer = [...new Set(start)];
  for (let depth = 0; depth < DEPTH; depth++) {
    // A path ending (or starting) here is `depth` long: position `depth` is not in every path.
    if (depth > 0 && layer.some(stopAt)) break;
    let chars: CharSet = [];
    const following = new Set<number>();
    for (const s of layer) {
      for (const e of next(s)) {
        // No real path starts or ends with `/` (picomatch's `*` takes a trailing one): not at the outer position.
        const set = depth === 0 ? subtractSets(e.set, JUST_SLASH) : e.set;
        if (set.length === 0) continue;
        chars = unionSets(chars, set);
        following.add(e.to);
      }
    }
    if (following.size === 0) break;
    out.push(chars);
    layer = [...following];
  }
  return out;
}

/** The sets with the characters of `spelling` added (picomatch also matches the path spelled like the pattern). */
function withSpelling(sets: CharSet[], spelling: string, fromEnd: boolean): CharSet[] {
  return sets.slice(0, spelling.length).map((set, k) => {
    const code = spelling.charCodeAt(fromEnd ? spelling.length - 1 - k : k);
    return unionSets(set, singleChar(code));
  });
}

/** The ends of the real paths a compiled pattern matches; `spelling` when its own spelling is an extra match. */
export function endsOf(automaton: Automaton, spelling?: string): Ends {
  const reverse: Array<Array<{ set: CharSet; to: number }>> = automaton.accept.map(() => []);
  automaton.edges.forEach((edges, from) => {
    for (const e of edges) reverse[e.to]!.push({ set: e.set, to: from });
  });
  const initial = new Set(automaton.initial);
  const accepting = automaton.accept.flatMap((yes, s) => (yes ? [s] : []));
  const head = layers(
    automaton.initial,
    (s) => automaton.edges[s]!,
    (s) => automaton.accept[s]!,
  );
  const tail = layers(
    accepting,
    (s) => reverse[s]!,
    (s) => initial.has(s),
  );
  if (spelling === undefined) return { head, tail };
  return { head: withSpelling(head, spelling, false), tail: withSpelling(tail, spelling, true) };
}

/** True when the two patterns' ends prove that no path matches both. */
export function endsDisjoint(a: Ends, b: Ends): boolean {
  for (const [x, y] of [
    [a.head, b.head],
    [a.tail, b.tail],
  ] as const) {
    const n = Math.min(x.length, y.length);
    for (let k = 0; k < n; k++) if (intersectSets(x[k]!, y[k]!).length === 0) return true;
  }
  return false;
}
