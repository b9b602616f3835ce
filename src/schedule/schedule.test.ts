import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { readRecordedEvents } from '../coord/index.js';
import { StateConflictError, ValidationError } from '../infra/index.js';
import { mergesDocument } from '../merge/index.js';
import { createLocalStore, createMemoryStore, type DocumentStore } from '../state/index.js';
import { createGraph, listNodes, type TaskNode } from '../taskgraph/index.js';
import { MAX_DECISIONS, readDecisions, recordDecisions } from './decisions.js';
import { scheduleNext } from './next.js';
import { DEFAULT_POLICY, readPolicy, type SchedulePolicy, setPolicy } from './policy.js';
import { rankNodes, scoreNode } from './score.js';
import { scheduleStatus } from './status.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

function setup(store: DocumentStore = createMemoryStore()) {
  const deps = { store, retries: 1, now: () => new Date('2026-01-01T00:00:00Z') };
  return { store, deps };
}

const policy = (): SchedulePolicy => structuredClone({ ...DEFAULT_POLICY }) as SchedulePolicy;

const node = (over: Partial<TaskNode>): TaskNode => ({
  node_id: 'n',
  graph_id: 'g',
  title: 'n',
  depends_on: [],
  status: 'ready',
  priority: 0,
  created_at: 't',
  updated_at: 't',
  ...over,
});

const ctx = (over: Partial<Parameters<typeof scoreNode>[1]> = {}) => ({
  agentId: 'a1',
  policy: policy(),
  worktrees: [],
  pressure: {},
  recent: [],
  ...over,
});

describe('scoring', () => {
  it('adds priority, affinity, cost and fairness, minus merge pressure, one reason line per term', () => {
    const s = scoreNode(node({ repository: 'p/r', priority: 2, estimated_tokens: 3000 }), {
      ...ctx(),
      worktrees: [{ repository: 'p/r', agent_id: 'a1' }],
      pressure: { 'p/r': 3 },
      recent: ['p/r', 'x/y', 'x/y', 'x/y'],
    });
    expect(s.terms).toEqual({ priority: 2, affinity: 0.5, cost: 0.0625, fairness: 0.1875, pressure: -2 });
    expect(s.score).toBe(0.75);
    expect(s.reasons).toHaveLength(5);
    expect(s.reasons[1]).toContain('a1 has a live worktree of p/r');
    expect(s.reasons[4]).toContain('3 merge(s) queued or running (threshold 3): -2');
  });

  it("counts another agent's worktree half, and ranks ties by tokens then ids", () => {
    const other = scoreNode(node({ repository: 'p/r' }), {
      ...ctx(),
      worktrees: [{ repository: 'p/r', agent_id: 'a2' }],
    });
    expect(other.terms.affinity).toBe(0.25);
    const ranked = rankNodes(
      [
        node({ node_id: 'b', estimated_tokens: 500 }),
        node({ node_id: 'a', estimated_tokens: 500 }),
        node({ node_id: 'c', priority: 1 }),
      ],
      { ...ctx(), policy: { ...policy(), weights: { priority: 1, affinity: 0, cost: 0, fairness: 0 } } },
    );
    expect(ranked.map((s) => s.node.node_id)).toEqual(['c', 'a', 'b']);
  });
});

describe('policy', () => {
  it('shows the defaults, sets only the fields given, and resets', async () => {
    const { deps } = setup();
    expect((await readPolicy(deps)).weights).toEqual(DEFAULT_POLICY.weights);
    const r = await setPolicy(deps, { weights: { fairness: 2 }, merge_queue_threshold: 5 });
    expect(r.changed).toEqual(['weights.fairness', 'merge_queue_threshold']);
    expect((await readPolicy(deps)).weights.fairness).toBe(2);
    expect((await setPolicy(deps, {}, true)).changed).toEqual(['weights.fairness', 'merge_queue_threshold']);
  });

  it('refuses a value outside its range, naming field, value and rule', async () => {
    const { deps } = setup();
    for (const [patch, field] of [
      [{ weights: { cost: -1 } }, 'weights.cost'],
      [{ merge_queue_threshold: 0 }, 'merge_queue_threshold'],
      [{ merge_queue_threshold: 2.5 }, 'merge_queue_threshold'],
      [{ fairness_window: 501 }, 'fairness_window'],
    ] as const) {
      const e = await setPolicy(deps, patch).catch((x: unknown) => x as ValidationError);
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).details).toMatchObject({ field });
      expect((e as ValidationError).details).toHaveProperty('rule');
    }
  });
});

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ title: `t${i}`, repository: 'p/r' }));

describe('schedule next', () => {
  it('starts the best node for the agent, records the decision with its reasons, and avoids merge pressure', async () => {
    const { deps, store } = setup();
    await createGraph(deps, {
      graph_id: 'g',
      title: 'G',
      items: [
        { title: 'busy', repository: 'p/busy', priority: 1 },
        { title: 'calm', repository: 'p/calm', priority: 0 },
      ],
    });
    await store.write(
      mergesDocument('p~busy'),
      {
        merges: Array.from({ length: 3 }, (_, i) => ({
          merge_id: `m${i}`,
          repository: 'p/busy',
          source_branch: `b${i}`,
          target_branch: 'main',
          status: 'queued',
          created_at: 't',
          updated_at: 't',
        })),
      },
      '""',
    );
    const r = await scheduleNext(deps, { agent_id: 'a1' }, []);
    expect(r.decisions.map((d) => [d.node_id, d.started])).toEqual([['calm', true]]);
    expect(r.decisions[0]!.bind_command).toBe('hub task bind-acl --graph-id g --node-id calm --agent-id a1');
    expect(r.decisions[0]!.compile_command).toBe('hub context compile --task-id calm --graph-id g');
    expect((await listNodes(deps, { graph_id: 'g', status: 'running' }))[0]).toMatchObject({
      node_id: 'calm',
      agent_id: 'a1',
    });
    const status = await scheduleStatus(deps);
    expect(status).toMatchObject({ ready_count: 1, decisions_kept: 1, merge_pressure: { 'p/busy': 3 } });
    expect(status.recent_decisions[0]!.reasons).toHaveLength(5);
    const kinds = (await readRecordedEvents(store)).map((e) => `${e.source}:${e.kind}`);
    expect(kinds.slice(-2)).toEqual(['scheduler:ScheduleDecision', 'taskgraph:TaskStarted']);
  });

  it('--dry-run records and starts nothing; --no-start records without starting', async () => {
    const { deps } = setup();
    await createGraph(deps, { graph_id: 'g', title: 'G', items: items(3) });
    const dry = await scheduleNext(deps, { agent_id: 'a1', limit: 2, dry_run: true }, []);
    expect(dry.decisions).toHaveLength(2);
    expect(await readDecisions(deps)).toEqual([]);
    const ranked = await scheduleNext(deps, { agent_id: 'a1', start: false }, []);
    expect(ranked.decisions[0]).toMatchObject({
      started: false,
      start_command: expect.stringContaining('task start'),
    });
    expect(await listNodes(deps, { status: 'running' })).toEqual([]);
  });

  it(`keeps only the newest ${MAX_DECISIONS} decisions`, async () => {
    const { deps } = setup();
    await createGraph(deps, { graph_id: 'g', title: 'G', items: items(1) });
    for (let i = 0; i < 11; i++) await scheduleNext(deps, { agent_id: 'a1', start: false, limit: 1 }, []);
    expect(await readDecisions(deps)).toHaveLength(11);
    const doc = (await readDecisions(deps)).at(-1)!;
    await deps.store.write(
      'schedule/decisions',
      { decisions: Array.from({ length: MAX_DECISIONS }, () => doc) },
      (await deps.store.read('schedule/decisions')).etag!,
    );
    await scheduleNext(deps, { agent_id: 'a1', start: false }, []);
    expect(await readDecisions(deps)).toHaveLength(MAX_DECISIONS);
  });
});

/** A store whose writes are blind (read-then-write, no lock, no If-Match). */
function blindStore(): DocumentStore {
  const inner = createMemoryStore();
  return {
    backend: 'memory',
    list: (c) => inner.list!(c),
    append: (n, k, item) => inner.append(n, k, item),
    read: (name) => inner.read(name),
    async write(name, value) {
      await new Promise((r) => setTimeout(r, 5));
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

async function race(store: DocumentStore, agents: number): Promise<string[]> {
  const { deps } = setup(store);
  await createGraph(deps, { graph_id: 'g', title: 'G', items: items(agents) });
  const results = await Promise.all(
    Array.from({ length: agents }, (_, i) => scheduleNext(deps, { agent_id: `a${i}` }, [])),
  );
  return results.flatMap((r) => r.decisions.map((d) => d.node_id));
}

function localStore(): DocumentStore {
  const root = createTempDir('hub-sched-');
  temps.push(root);
  mkdirSync(join(root, '.hub'));
  return createLocalStore({ dir: join(root, '.hub'), root });
}

describe('agents asking at once', () => {
  it.each([
    ['memory', () => createMemoryStore()],
    ['local', localStore],
  ])('%s backend: 6 agents get 6 distinct nodes', async (_n, make) => {
    const picked = await race(make(), 6);
    expect(picked).toHaveLength(6);
    expect(new Set(picked).size).toBe(6);
  });

  it('the check catches a claim that is not atomic: agents share nodes', async () => {
    const picked = await race(blindStore(), 6);
    expect(new Set(picked).size).toBeLessThan(picked.length);
  });
});

describe('schedule status', () => {
  it('shows as many recent decisions as asked, newest first, when fewer are kept than twice that', async () => {
    const { deps } = setup();
    const decision = (i: number) => ({
      decision_id: `sd-${i}`,
      at: `2026-01-01T00:00:0${i}.000Z`,
      agent_id: 'a1',
      graph_id: 'g',
      node_id: `n${i}`,
      score: 1,
      terms: {},
      reasons: [],
      started: true,
    });
    await recordDecisions(deps, [decision(1), decision(2), decision(3)]);
    const ids = async (recent: number) =>
      (await scheduleStatus(deps, { recent })).recent_decisions.map((d) => d.decision_id);
    expect(await ids(5)).toEqual(['sd-3', 'sd-2', 'sd-1']);
    expect(await ids(2)).toEqual(['sd-3', 'sd-2']);
    expect(await ids(0)).toEqual([]);
  });
});
