import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../infra/index.js';
import {
  checkAcyclic,
  checkGraphLimits,
  checkKnownDependencies,
  findCycle,
  refreshReady,
} from './graph-check.js';
import { TASK_LIMITS, type TaskNode } from './schema.js';

const edges = (spec: Record<string, string[]>) =>
  Object.entries(spec).map(([node_id, depends_on]) => ({ node_id, depends_on }));

const node = (node_id: string, depends_on: string[], status: TaskNode['status'] = 'pending'): TaskNode => ({
  node_id,
  graph_id: 'g',
  title: node_id,
  depends_on,
  status,
  priority: 0,
  created_at: 't0',
  updated_at: 't0',
});

describe('findCycle', () => {
  it('finds none in a DAG with shared dependencies', () => {
    expect(findCycle(edges({ a: [], b: ['a'], c: ['a', 'b'], d: ['c', 'b'] }))).toBeNull();
  });

  it('names the cycle in dependency order, first node repeated', () => {
    expect(findCycle(edges({ x: [], a: ['b'], b: ['c'], c: ['a'] }))).toEqual(['a', 'b', 'c', 'a']);
  });

  it('finds a self-dependency', () => {
    expect(findCycle(edges({ a: ['a'] }))).toEqual(['a', 'a']);
  });

  it('walks a chain of 10,000 nodes without overflowing the stack, and finds the cycle closing it', () => {
    const n = 10_000;
    const chain = Array.from({ length: n }, (_, i) => ({
      node_id: `n${i}`,
      depends_on: i === 0 ? [] : [`n${i - 1}`],
    }));
    // Visiting from the far end first makes the walk go the whole depth.
    expect(findCycle([...chain].reverse())).toBeNull();
    chain[0]!.depends_on = [`n${n - 1}`];
    const cycle = findCycle(chain)!;
    expect(cycle).toHaveLength(n + 1);
    expect(cycle[0]).toBe(cycle[n]);
  });

  it('checkAcyclic refuses with the cycle in the message and details', () => {
    const e = (() => {
      try {
        checkAcyclic(edges({ a: ['b'], b: ['a'] }));
      } catch (err) {
        return err as ValidationError;
      }
    })()!;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toContain('a -> b -> a');
    expect(e.details).toMatchObject({ rule: 'acyclic', cycle: ['a', 'b', 'a'] });
  });
});

describe('checks', () => {
  it('refuses an unknown dependency with a suggestion', () => {
    expect(() => checkKnownDependencies(edges({ build: [], test: ['buld'] }), 'g')).toThrow(NotFoundError);
    try {
      checkKnownDependencies(edges({ build: [], test: ['buld'] }), 'g');
    } catch (err) {
      expect((err as NotFoundError).message).toContain("did you mean 'build'");
      expect((err as NotFoundError).details).toMatchObject({ node_id: 'test', value: 'buld' });
    }
  });

  it('names the limit a graph breaks', () => {
    const many = Array.from({ length: TASK_LIMITS.nodes_per_graph + 1 }, (_, i) => ({
      node_id: `n${i}`,
      depends_on: [],
    }));
    expect(() => checkGraphLimits(many, 'g')).toThrow(/nodes_per_graph/);
    const wide = [
      {
        node_id: 'x',
        depends_on: Array.from({ length: TASK_LIMITS.depends_on_per_node + 1 }, (_, i) => `d${i}`),
      },
    ];
    expect(() => checkGraphLimits(wide, 'g')).toThrow(/depends_on_per_node/);
  });
});

describe('refreshReady', () => {
  it('makes a node ready when every dependency is completed, never when one is cancelled', () => {
    const nodes = [
      node('a', [], 'completed'),
      node('b', ['a']),
      node('c', ['a', 'd']),
      node('d', [], 'cancelled'),
      node('e', []),
    ];
    expect(refreshReady(nodes, 't1')).toEqual(['b', 'e']);
    expect(nodes.map((n) => n.status)).toEqual(['completed', 'ready', 'pending', 'cancelled', 'ready']);
  });

  it('puts a ready node whose dependency regressed back to pending', () => {
    const nodes = [node('a', [], 'running'), node('b', ['a'], 'ready')];
    expect(refreshReady(nodes, 't1')).toEqual([]);
    expect(nodes[1]!.status).toBe('pending');
  });
});
