import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { readRecordedEvents } from '../coord/index.js';
import {
  AmbiguousError,
  NotFoundError,
  RefusedError,
  StateConflictError,
  ValidationError,
} from '../infra/index.js';
import { createLocalStore, createMemoryStore, type DocumentStore } from '../state/index.js';
import { createGraph, expandGraph } from './graphs.js';
import { parseOutline } from './outline.js';
import { listNodes, nodeStatus, taskSummary } from './summary.js';
import { blockNode, cancelNode, completeNode, requeueNode, startNode } from './transitions.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

function setup(store: DocumentStore = createMemoryStore()) {
  let now = new Date('2026-01-01T00:00:00Z');
  const deps = { store, retries: 1, now: () => now };
  const tick = () => {
    now = new Date(now.getTime() + 1000);
  };
  const events = async () => await readRecordedEvents(store);
  return { store, deps, tick, events };
}

function localStore(): DocumentStore {
  const root = createTempDir('hub-tasks-');
  temps.push(root);
  mkdirSync(join(root, '.hub'));
  return createLocalStore({ dir: join(root, '.hub'), root });
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as RefusedError,
  );

const OUTLINE = parseOutline('design\n  build\n    test\n  docs\n');

describe('task graphs', () => {
  it('creates a graph from an outline: ready roots, events in order, ids from titles', async () => {
    const { deps, events } = setup();
    const w = await createGraph(deps, { graph_id: 'g1', title: 'Login', items: OUTLINE });
    expect(w.created.map((n) => [n.node_id, n.depends_on, n.status])).toEqual([
      ['design', [], 'ready'],
      ['build', ['design'], 'pending'],
      ['test', ['build'], 'pending'],
      ['docs', ['design'], 'pending'],
    ]);
    expect(w.ready).toEqual(['design']);
    const kinds = (await events()).map((e) => `${e.source}:${e.kind}:${e.data.node_id ?? ''}`);
    expect(kinds).toEqual([
      'taskgraph:TaskGraphCreated:',
      'taskgraph:TaskNodeCreated:design',
      'taskgraph:TaskNodeCreated:build',
      'taskgraph:TaskNodeCreated:test',
      'taskgraph:TaskNodeCreated:docs',
      'taskgraph:TaskReady:design',
    ]);
  });

  it('refuses a taken graph id, numbers a taken title slug, and names unknown graphs with suggestions', async () => {
    const { deps } = setup();
    await createGraph(deps, { graph_id: 'login', title: 'Login' });
    const e = await failure(createGraph(deps, { graph_id: 'login', title: 'Again' }));
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.details).toMatchObject({ rule: 'unique_graph_id' });
    expect((await createGraph(deps, { title: 'Login' })).graph.graph_id).toBe('login-2');
    const miss = await failure(expandGraph(deps, { graph_id: 'logn', items: [{ title: 'x' }] }));
    expect(miss).toBeInstanceOf(NotFoundError);
    expect(miss.message).toContain("did you mean 'login'");
  });

  it('refuses cycles and unknown dependencies at write time, writing nothing', async () => {
    const { deps, store } = setup();
    await createGraph(deps, { graph_id: 'g', title: 'G', items: [{ title: 'a' }] });
    const before = (await store.read('tasks/g')).etag;
    const cyc = await failure(
      expandGraph(deps, {
        graph_id: 'g',
        items: [
          { title: 'b', depends_on: ['c'] },
          { title: 'c', depends_on: ['b'] },
        ],
      }),
    );
    expect(cyc).toBeInstanceOf(ValidationError);
    expect(cyc.message).toContain('b -> c -> b');
    const unknown = await failure(
      expandGraph(deps, { graph_id: 'g', items: [{ title: 'b', depends_on: ['zz'] }] }),
    );
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect((await store.read('tasks/g')).etag).toBe(before);
  });

  it('walks start, complete, block, cancel and requeue with events, refusing what the rules forbid', async () => {
    const { deps, events } = setup();
    await createGraph(deps, { graph_id: 'g', title: 'G', items: OUTLINE });
    const early = await failure(startNode(deps, { node_id: 'build', agent_id: 'a1' }));
    expect(early.details).toMatchObject({ rule: 'dependencies_incomplete', waiting_on: ['design'] });
    const s = await startNode(deps, { node_id: 'design', agent_id: 'a1' });
    expect(s.node).toMatchObject({ status: 'running', agent_id: 'a1' });
    expect((await startNode(deps, { node_id: 'design', agent_id: 'a1' })).changed).toBe(false);
    const other = await failure(startNode(deps, { node_id: 'design', agent_id: 'a2' }));
    expect(other.details).toMatchObject({ rule: 'running_elsewhere', holder: { agent_id: 'a1' } });
    const c = await completeNode(deps, { graph_id: 'g', node_id: 'design', agent_id: 'a1' });
    expect(c.ready).toEqual(['build', 'docs']);
    await blockNode(deps, { node_id: 'build', reason: 'waiting on credentials' });
    const blocked = await failure(startNode(deps, { node_id: 'build', agent_id: 'a1' }));
    expect(blocked.details).toMatchObject({ rule: 'blocked' });
    await requeueNode(deps, { graph_id: 'g', node_id: 'build', reason: 'credentials arrived' });
    await startNode(deps, { node_id: 'build', agent_id: 'a2' });
    const requeued = await requeueNode(deps, { graph_id: 'g', node_id: 'build', reason: 'agent died' });
    expect(requeued.node).toMatchObject({ status: 'ready' });
    expect(requeued.node.agent_id).toBeUndefined();
    await cancelNode(deps, { node_id: 'build', reason: 'not needed' });
    const st = await nodeStatus(deps, { node_id: 'test' });
    expect(st.stalled_by).toEqual(['build']);
    expect(st.node.status).toBe('pending');
    const done = await failure(startNode(deps, { node_id: 'build', agent_id: 'a1' }));
    expect(done.details).toMatchObject({ rule: 'terminal_status' });
    expect(await taskSummary(deps)).toEqual({
      pending: 1,
      ready: 1,
      blocked: 0,
      running: 0,
      completed: 1,
      cancelled: 1,
      total: 4,
    });
    const kinds = (await events()).map((e) => e.kind).slice(6);
    expect(kinds).toEqual([
      'TaskStarted',
      'TaskCompleted',
      'TaskReady',
      'TaskReady',
      'TaskBlocked',
      'TaskRequeued',
      'TaskStarted',
      'TaskRequeued',
      'TaskCancelled',
    ]);
    expect((await listNodes(deps, { status: 'ready' })).map((n) => n.node_id)).toEqual(['docs']);
  });

  it('asks for the graph when a node id is in several, and suggests close ids when in none', async () => {
    const { deps } = setup();
    await createGraph(deps, { graph_id: 'g1', title: 'one', items: [{ title: 'setup' }] });
    await createGraph(deps, { graph_id: 'g2', title: 'two', items: [{ title: 'setup' }] });
    expect(await failure(startNode(deps, { node_id: 'setup', agent_id: 'a' }))).toBeInstanceOf(
      AmbiguousError,
    );
    const miss = await failure(startNode(deps, { node_id: 'setp', agent_id: 'a' }));
    expect(miss).toBeInstanceOf(NotFoundError);
    expect(miss.message).toContain("did you mean 'setup'");
  });

  it('batches node events past 100 nodes', async () => {
    const { deps, events } = setup();
    const items = Array.from({ length: 150 }, (_, i) => ({ title: `t${i}` }));
    await createGraph(deps, { graph_id: 'big', title: 'Big', items });
    const evs = await events();
    expect(evs.map((e) => e.kind)).toEqual(['TaskGraphCreated', 'TaskNodeCreated', 'TaskReady']);
    expect(evs[1]!.data).toMatchObject({ count: 150, truncated: true });
  });
});

/**
 * A store whose writes are blind (a plain read-then-write, no lock, no If-Match): the first `writers` writes of a
 * graph wait until all have been asked for, so every writer has read the graph before any write lands.
 */
function blindStore(writers: number): DocumentStore {
  const inner = createMemoryStore();
  const held: Array<() => void> = [];
  let open = false;
  const barrier = () =>
    new Promise<void>((resolve) => {
      if (open) return resolve();
      held.push(resolve);
      if (held.length >= writers) {
        open = true;
        for (const r of held) r();
      }
    });
  return {
    backend: 'memory',
    list: (c) => inner.list!(c),
    append: (n, k, item) => inner.append(n, k, item),
    read: (name) => inner.read(name),
    async write(name, value) {
      if (name === 'tasks/g' && (await inner.read(name)).value !== undefined) await barrier();
      // Blind: whatever is stored now is overwritten.
      for (;;) {
        try {
          return await inner.write(name, value, (await inner.read(name)).etag ?? '""');
        } catch (err) {
          if (!(err instanceof StateConflictError)) throw err;
        }
      }
    },
  };
}

async function fourWriters(store: DocumentStore) {
  const { deps } = setup(store);
  await createGraph(deps, {
    graph_id: 'g',
    title: 'G',
    items: [{ title: 'a' }, { title: 'b' }, { title: 'c', depends_on: ['a', 'b'] }],
  });
  await Promise.all([
    completeNode(deps, { graph_id: 'g', node_id: 'a' }),
    completeNode(deps, { graph_id: 'g', node_id: 'b' }),
    expandGraph(deps, { graph_id: 'g', items: [{ title: 'x' }] }),
    expandGraph(deps, { graph_id: 'g', items: [{ title: 'y', depends_on: ['c'] }] }),
  ]);
  const nodes = await listNodes(deps, { graph_id: 'g' });
  return Object.fromEntries(nodes.map((n) => [n.node_id, n.status]));
}

const ALL_KEPT = { a: 'completed', b: 'completed', c: 'ready', x: 'ready', y: 'pending' };

describe('concurrent writers of one graph', () => {
  it.each([
    ['memory', () => createMemoryStore()],
    ['local', localStore],
  ])('%s backend: two completes and two expands at once lose nothing', async (_name, make) => {
    expect(await fourWriters(make())).toEqual(ALL_KEPT);
  });

  it('the check catches a plain read-then-write: updates are lost', async () => {
    expect(await fourWriters(blindStore(4))).not.toEqual(ALL_KEPT);
  });
});
