import type { GraphDirection } from './graph.js';

/** Where an edge leaves from and arrives at, whatever the edge type calls its ends. */
export interface EdgeEnds<E> {
  from: (e: E) => string;
  to: (e: E) => string;
}

/**
 * Breadth-first neighbourhood of `originId`, walked level by level without recursion: the distance of every node
 * reached within `depth` steps along `direction` (out follows from -> to, in the reverse, both either), and every
 * edge crossed on the way (including edges between two nodes already reached).
 */
export function walkNeighborhood<E>(
  originId: string,
  edges: readonly E[],
  ends: EdgeEnds<E>,
  depth: number,
  direction: GraphDirection,
): { dist: Map<string, number>; used: Set<E> } {
  const outAdj = new Map<string, E[]>();
  const inAdj = new Map<string, E[]>();
  const push = (m: Map<string, E[]>, k: string, e: E) => {
    const list = m.get(k);
    if (list) list.push(e);
    else m.set(k, [e]);
  };
  for (const e of edges) {
    push(outAdj, ends.from(e), e);
    push(inAdj, ends.to(e), e);
  }
  const dist = new Map<string, number>([[originId, 0]]);
  const used = new Set<E>();
  let frontier = [originId];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      const steps: Array<[E, string]> = [];
      if (direction !== 'in') for (const e of outAdj.get(id) ?? []) steps.push([e, ends.to(e)]);
      if (direction !== 'out') for (const e of inAdj.get(id) ?? []) steps.push([e, ends.from(e)]);
      for (const [e, other] of steps) {
        used.add(e);
        if (!dist.has(other)) {
          dist.set(other, d);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  return { dist, used };
}
