import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findCycleGroups, stronglyConnected } from './cycles.js';

const chain = (n: number) => Array.from({ length: n }, (_, i) => (i + 1 < n ? [i + 1] : []));

describe('cycle groups', () => {
  it('walks a 200,000-long chain without recursion and finds no cycle', () => {
    expect(findCycleGroups(chain(200_000))).toEqual([]);
  });

  it('reports a 200,000-long ring once, as the whole ring', () => {
    const ring = chain(200_000);
    ring[199_999] = [0];
    const [only, ...rest] = findCycleGroups(ring);
    expect(rest).toEqual([]);
    expect(only!.groupSize).toBe(200_000);
    expect(only!.path.length).toBe(200_001);
    expect(only!.path.slice(0, 3)).toEqual([0, 1, 2]);
  });

  it('reports a dense graph (every node depends on every other) once, by its shortest cycle', () => {
    const n = 700;
    const dense = Array.from({ length: n }, (_, i) =>
      Array.from({ length: n }, (_, j) => j).filter((j) => j !== i),
    );
    expect(findCycleGroups(dense)).toEqual([{ path: [0, 1, 0], groupSize: n }]);
  });

  it('reports self-dependencies and keeps groups in the order of their first node', () => {
    expect(findCycleGroups([[1], [2], [0], [3], []])).toEqual([
      { path: [0, 1, 2, 0], groupSize: 3 },
      { path: [3, 3], groupSize: 1 },
    ]);
  });

  it('agrees with reachability on small random graphs', () => {
    const graph = fc
      .integer({ min: 1, max: 9 })
      .chain((n) =>
        fc.array(fc.uniqueArray(fc.nat(n - 1), { maxLength: n }), { minLength: n, maxLength: n }),
      );
    fc.assert(
      fc.property(graph, (adj) => {
        const n = adj.length;
        // reach[i][j]: j is reachable from i in one or more steps.
        const reach = adj.map((edges) => {
          const seen = new Set<number>();
          const todo = [...edges];
          while (todo.length) {
            const v = todo.pop()!;
            if (seen.has(v)) continue;
            seen.add(v);
            todo.push(...adj[v]!);
          }
          return seen;
        });
        const sccs = stronglyConnected(adj);
        const groupOf = new Map<number, number>();
        sccs.forEach((c, g) => {
          for (const v of c) groupOf.set(v, g);
        });
        expect(groupOf.size).toBe(n);
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++)
            if (i !== j) expect(groupOf.get(i) === groupOf.get(j)).toBe(reach[i]!.has(j) && reach[j]!.has(i));
        for (const cy of findCycleGroups(adj)) {
          // Each reported cycle is a real path back to its start.
          for (let k = 0; k + 1 < cy.path.length; k++) expect(adj[cy.path[k]!]).toContain(cy.path[k + 1]);
          expect(cy.path[0]).toBe(cy.path[cy.path.length - 1]);
        }
        const cyclic = sccs.filter((c) => c.length > 1 || adj[c[0]!]!.includes(c[0]!)).length;
        expect(findCycleGroups(adj).length).toBe(cyclic);
      }),
    );
  });
});
