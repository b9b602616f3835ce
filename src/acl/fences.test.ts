import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { RefusedError } from '../infra/index.js';
import { createLocalStore, createMemoryStore, type DocumentStore } from '../state/index.js';
import { fenceOfAgent, landFenced, staleFence } from './fences.js';
import { acquireLease, heartbeatLease, readLeases, releaseLease } from './leases.js';
import type { RepoTarget } from './repository-ref.js';

const repo: RepoTarget = { id: 'platform/identity', key: 'platform~identity', root: undefined, self: false };
const web: RepoTarget = { id: 'platform/web', key: 'platform~web', root: undefined, self: false };
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

function setup(store: DocumentStore = createMemoryStore()) {
  let now = new Date('2026-01-01T00:00:00Z');
  const deps = { store, retries: 50, now: () => now };
  const tick = (minutes: number) => {
    now = new Date(now.getTime() + minutes * 60_000);
  };
  return { store, deps, tick };
}

/** A memory store without its atomic `update`: every write is a compare-and-swap, as on http and dynamodb. */
function casOnly(): DocumentStore {
  const m = createMemoryStore();
  return { backend: 'memory-cas', read: m.read, write: m.write, append: m.append, list: m.list };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as RefusedError,
  );

describe('lease fences', () => {
  it('grow per (repository, task) across release, expiry and re-acquire; renewals keep theirs', async () => {
    const { deps, tick } = setup();
    const a = await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 'T-1', ttl: '10m' });
    expect(a.lease.fence).toBe(1);
    const renewed = await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 'T-1' });
    expect(renewed).toMatchObject({ acquired: false, lease: { fence: 1 } });
    expect(
      (await heartbeatLease(deps, { repository: repo, agent_id: 'a1', task_id: 'T-1' })).lease.fence,
    ).toBe(1);
    await releaseLease(deps, { repository: repo, agent_id: 'a1', task_id: 'T-1' });
    const b = await acquireLease(deps, { repository: repo, agent_id: 'a2', task_id: 'T-1', ttl: '1m' });
    expect(b.lease.fence).toBe(2);
    tick(2);
    const again = await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 'T-1' });
    expect(again).toMatchObject({ acquired: true, took_over: b.lease.lease_id, lease: { fence: 3 } });
    // Another repository keeps a sequence of its own; lists show the fence.
    expect((await acquireLease(deps, { repository: web, agent_id: 'a1', task_id: 'T-1' })).lease.fence).toBe(
      1,
    );
    expect((await readLeases(deps, repo.key)).map((l) => [l.agent_id, l.status, l.fence])).toEqual([
      ['a1', 'released', 1],
      ['a2', 'expired', 2],
      ['a1', 'active', 3],
    ]);
  });

  it('never reuses a fence, even after the lease records are pruned or removed', async () => {
    const { deps, store, tick } = setup();
    const seen: number[] = [];
    for (let i = 0; i < 205; i++) {
      tick(1);
      const { lease } = await acquireLease(deps, { repository: repo, agent_id: `a${i % 3}`, task_id: 'T-1' });
      seen.push(lease.fence!);
      await releaseLease(deps, { repository: repo, agent_id: lease.agent_id, task_id: 'T-1' });
    }
    expect(seen).toEqual(Array.from({ length: 205 }, (_, i) => i + 1));
    // Only the newest 200 ended records are kept; the oldest ones (fences 1..5) are gone.
    const doc = (await store.read<{ leases: Array<{ fence: number }> }>('leases/platform~identity')).value!;
    expect(doc.leases).toHaveLength(200);
    expect(Math.min(...doc.leases.map((l) => l.fence))).toBe(6);
    // Every record removed by hand (or by a tool that cleans documents): the high-water mark survives.
    const { etag } = await store.read('leases/platform~identity');
    await store.write('leases/platform~identity', { ...doc, leases: [] }, etag!);
    expect((await acquireLease(deps, { repository: repo, agent_id: 'a9', task_id: 'T-1' })).lease.fence).toBe(
      206,
    );
  });

  it('continues above the fences of leases written before the high-water mark existed', async () => {
    const { deps, store } = setup();
    await store.write(
      'leases/platform~identity',
      {
        leases: [
          {
            lease_id: 'ls-old',
            repository: 'platform/identity',
            agent_id: 'a1',
            task_id: 'T-1',
            status: 'released',
            fence: 7,
            ttl: '30m',
            expires_at: '2026-01-01T00:30:00.000Z',
            acquired_at: '2026-01-01T00:00:00.000Z',
            renewed_at: '2026-01-01T00:00:00.000Z',
            updated_at: '2026-01-01T00:00:00.000Z',
          },
        ],
      },
      '""',
    );
    expect((await acquireLease(deps, { repository: repo, agent_id: 'a2', task_id: 'T-1' })).lease.fence).toBe(
      8,
    );
  });

  for (const [name, make] of [
    ['memory (atomic update)', () => [createMemoryStore()]],
    ['compare-and-swap only (as http, dynamodb)', () => [casOnly()]],
    [
      'local, four store handles of one .hub/',
      () => {
        const dir = createTempDir('hub-fences-');
        temps.push(dir);
        mkdirSync(join(dir, '.hub'));
        return Array.from({ length: 4 }, () => createLocalStore({ dir: join(dir, '.hub') }));
      },
    ],
  ] as const) {
    it(`gives racing acquirers distinct, growing fences: ${name}`, async () => {
      const stores = make() as DocumentStore[];
      const grants: number[] = [];
      await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const { deps } = setup(stores[i % stores.length]);
          for (let round = 0; round < 5; round++) {
            for (;;) {
              try {
                const { lease } = await acquireLease(deps, {
                  repository: repo,
                  agent_id: `r${i}`,
                  task_id: 'hot',
                });
                grants.push(lease.fence!);
                await releaseLease(deps, { repository: repo, agent_id: `r${i}`, task_id: 'hot' });
                break;
              } catch (err) {
                if (!(err instanceof RefusedError)) throw err;
                // A refused agent waits a moment, as a real one does: a loop that retries at once can starve the
                // holder's release of the lock file on the local backend.
                await new Promise((r) => setTimeout(r, 1 + Math.random() * 4));
              }
            }
          }
        }),
      );
      // One live lease at a time: each grant saw the one before released, so fences came in order, none twice.
      expect(grants).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });
  }
});

describe('stale fences', () => {
  it('judges a fence stale once the task was leased again, naming the newer holder', async () => {
    const { deps, tick } = setup();
    const a = await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 'T-1', ttl: '1m' });
    expect(await staleFence(deps, repo, { task_id: 'T-1', fence: a.lease.fence! })).toBeUndefined();
    tick(2);
    // Lapsed but not taken: the fence is still the task's newest.
    expect(await fenceOfAgent(deps, repo.key, { agent_id: 'a1', task_id: 'T-1' })).toEqual({
      task_id: 'T-1',
      fence: 1,
      live: false,
    });
    const b = await acquireLease(deps, { repository: repo, agent_id: 'a2', task_id: 'T-1' });
    expect(await staleFence(deps, repo, { task_id: 'T-1', fence: 1 })).toMatchObject({
      task_id: 'T-1',
      fence: 1,
      current: { fence: b.lease.fence, agent_id: 'a2', lease_id: b.lease.lease_id },
    });
    expect(await fenceOfAgent(deps, repo.key, { agent_id: 'a2', task_id: 'T-1' })).toEqual({
      task_id: 'T-1',
      fence: 2,
      live: true,
    });
    expect(await fenceOfAgent(deps, repo.key, { agent_id: 'a3', task_id: 'T-1' })).toBeUndefined();
  });

  it('finds the task by the branch of the agent lease when no task is named', async () => {
    const { deps, store } = setup();
    await store.write(
      'branches/platform~identity',
      {
        allocations: [
          {
            branch_id: 'br-1',
            name: 'agent/t-1',
            agent_id: 'a1',
            task_id: 'T-1',
            status: 'active',
            created_at: '2026-01-01T00:00:00.000Z',
          },
        ],
      },
      '""',
    );
    await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 'T-1', branch: 'agent/t-1' });
    expect(await fenceOfAgent(deps, repo.key, { agent_id: 'a1', branch: 'agent/t-1' })).toEqual({
      task_id: 'T-1',
      fence: 1,
      live: true,
    });
    expect(await fenceOfAgent(deps, repo.key, { agent_id: 'a1', branch: 'agent/other' })).toBeUndefined();
  });

  it('holds a new grant of the task back while a landing with the current fence is in flight', async () => {
    const { deps } = setup();
    const a = await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 'T-1' });
    await releaseLease(deps, { repository: repo, agent_id: 'a1', task_id: 'T-1' });
    const order: string[] = [];
    let landed!: () => void;
    const landing = landFenced(
      deps,
      repo,
      { task_id: 'T-1', fence: a.lease.fence!, by: 'test:1' },
      async () => {
        order.push('pinned');
        await new Promise<void>((r) => {
          landed = r;
        });
        order.push('landed');
      },
    );
    while (order.length === 0) await new Promise((r) => setTimeout(r, 5));
    const grant = acquireLease(deps, { repository: repo, agent_id: 'a2', task_id: 'T-1' }).then((r) => {
      order.push(`granted ${r.lease.fence}`);
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    landed();
    await landing;
    await grant;
    expect(order).toEqual(['pinned', 'landed', 'granted 2']);
    // Another task is never held back.
    expect((await acquireLease(deps, { repository: repo, agent_id: 'a2', task_id: 'T-2' })).lease.fence).toBe(
      3,
    );
    // The pin is gone: a later landing of the old fence is refused as stale, and nothing runs.
    let ran = false;
    const e = await failure(
      landFenced(deps, repo, { task_id: 'T-1', fence: 1, by: 'test:1' }, async () => {
        ran = true;
      }),
    );
    expect(ran).toBe(false);
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.details).toMatchObject({ rule: 'stale_fence', fence: 1, current: { fence: 2, agent_id: 'a2' } });
  });
});
