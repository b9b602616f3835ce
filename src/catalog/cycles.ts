/**
 * Strongly connected components of a graph given as adjacency lists over 0..n-1 (Tarjan's algorithm, with an
 * explicit stack: a 6,000-long dependency chain must not overflow the call stack). O(n + edges).
 */
export function stronglyConnected(adj: readonly (readonly number[])[]): number[][] {
  const n = adj.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const sccs: number[][] = [];
  // The call stack of the recursive formulation: a node and the position of its next edge.
  const callNode: number[] = [];
  const callEdge: number[] = [];
  let counter = 0;
  const enter = (v: number) => {
    index[v] = counter;
    low[v] = counter++;
    stack.push(v);
    onStack[v] = 1;
    callNode.push(v);
    callEdge.push(0);
  };
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1) continue;
    enter(s);
    while (callNode.length > 0) {
      const top = callNode.length - 1;
      const v = callNode[top]!;
      const edges = adj[v]!;
      const e = callEdge[top]!;
      if (e < edges.length) {
        callEdge[top] = e + 1;
        const w = edges[e]!;
        if (index[w] === -1) enter(w);
        else if (onStack[w] && index[w]! < low[v]!) low[v] = index[w]!;
        continue;
      }
      callNode.pop();
      callEdge.pop();
      if (top > 0) {
        const u = callNode[top - 1]!;
        if (low[v]! < low[u]!) low[u] = low[v]!;
      }
      if (low[v] === index[v]) {
        const comp: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp.push(w);
        } while (w !== v);
        sccs.push(comp);
      }
    }
  }
  return sccs;
}

/** One cycle per group of mutually dependent nodes: the nodes in order, the first repeated at the end. */
export interface Cycle {
  path: number[];
  /** How many nodes the group has (at least the cycle's; more when other cycles run through it). */
  groupSize: number;
}

/**
 * Every cycle group of the graph (a strongly connected component with more than one node, or a node depending on
 * itself), each reported once by its shortest cycle through its first node, groups in the order of their first
 * node. Linear in the size of the graph, however many cycles it holds.
 */
export function findCycleGroups(adj: readonly (readonly number[])[]): Cycle[] {
  const out: Cycle[] = [];
  const group = new Int32Array(adj.length).fill(-1);
  const sccs = stronglyConnected(adj);
  sccs.forEach((comp, g) => {
    for (const v of comp) group[v] = g;
  });
  for (let g = 0; g < sccs.length; g++) {
    const comp = sccs[g]!;
    let start = comp[0]!;
    for (const v of comp) if (v < start) start = v;
    if (comp.length === 1 && !adj[start]!.includes(start)) continue;
    out.push({ path: shortestCycle(adj, start, group, g), groupSize: comp.length });
  }
  return out.sort((a, b) => a.path[0]! - b.path[0]!);
}

/** Breadth-first, inside one group, from `start` back to it. */
function shortestCycle(
  adj: readonly (readonly number[])[],
  start: number,
  group: Int32Array,
  g: number,
): number[] {
  const parent = new Map<number, number>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head]!;
    for (const w of adj[v]!) {
      if (group[w] !== g) continue;
      if (w === start) {
        const path = [start];
        for (let x = v; x !== start; x = parent.get(x)!) path.push(x);
        path.push(start);
        // Built backwards from the edge that closes the cycle: reverse all but the repeated ends.
        return [start, ...path.slice(1, -1).reverse(), start];
      }
      if (!parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
