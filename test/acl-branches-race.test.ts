// 8 agents racing to allocate one branch name, on every backend: exactly one wins, the others are refused by the
// allocation record (409 naming the winner), one allocation is recorded, one BranchAllocated event, and the git
// branch exists once at the base. The harness is shown to catch a store whose update is not atomic (a blind
// read-then-write): there every racer "wins" the record and git alone turns seven away, which the checks see.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecordedEvents } from '../src/coord/index.js';
import { StateConflictError } from '../src/infra/index.js';
import { branchAllocate } from '../src/ops/branch-ops.js';
import type { OpContext } from '../src/ops/index.js';
import { createContext, invoke } from '../src/ops/index.js';
import { createMemoryStore, type DocumentStore } from '../src/state/index.js';
import { buildWorkspace, git, hubAsync, removeTempDir } from './fixtures/index.js';
import { type RunningServer, startTestServer } from './http-server.js';

const RACERS = 8;
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

function workspace() {
  const ws = buildWorkspace({
    projects: [{ name: 'platform', repos: [{ name: 'identity', files: { 'README.md': '# identity\n' } }] }],
  });
  temps.push(ws.root);
  writeFileSync(join(ws.root, 'hub.config.yaml'), 'state:\n  backend: local\n');
  return { ...ws, repo: ws.repoDirs['platform/identity']! };
}

interface Outcome {
  wins: number;
  /** Rules of the refusals (`one_allocation_per_name` when the record turned the racer away). */
  refused: string[];
  others: string[];
}

/** Starts RACERS allocations of `name` at once, each with its own context (as separate agents have). */
async function race(ctxOf: (i: number) => OpContext, name: string): Promise<Outcome> {
  const settled = await Promise.allSettled(
    Array.from({ length: RACERS }, (_, i) =>
      invoke(branchAllocate, ctxOf(i), {
        repository: 'platform/identity',
        agent_id: `r${i}`,
        task_id: `t${i}`,
        name,
      }),
    ),
  );
  const out: Outcome = { wins: 0, refused: [], others: [] };
  for (const s of settled) {
    if (s.status === 'fulfilled') out.wins++;
    else {
      const e = s.reason as { code?: string; details?: { rule?: string }; message: string };
      if (e.code === 'refused') out.refused.push(String(e.details?.rule));
      else out.others.push(e.message);
    }
  }
  return out;
}

/** What the race left: allocations of `name` in the document, BranchAllocated events, and the git branch. */
async function leftBy(store: DocumentStore, repo: string, name: string) {
  const doc = (
    await store.read<{ allocations: Array<{ name: string; status: string }> }>('branches/platform~identity')
  ).value;
  const events = {
    events: (await readRecordedEvents(store)) as unknown as Array<{ kind: string; data: { name: string } }>,
  };
  return {
    records: (doc?.allocations ?? []).filter((a) => a.name === name).length,
    allocatedEvents: (events?.events ?? []).filter(
      (e) => e.kind === 'BranchAllocated' && e.data.name === name,
    ).length,
    branches: git(repo, ['branch', '--list', name]).split('\n').filter(Boolean).length,
  };
}

function expectOneWinner(o: Outcome, left: Awaited<ReturnType<typeof leftBy>>) {
  expect(o.others).toEqual([]);
  expect(o.wins).toBe(1);
  expect(o.refused).toEqual(Array(RACERS - 1).fill('one_allocation_per_name'));
  expect(left).toEqual({ records: 1, allocatedEvents: 1, branches: 1 });
}

/**
 * A store whose update is a blind read-then-write (no lock, no If-Match). The first RACERS writes of the branches
 * document are held until all have been asked for, so every racer has read the document before any write lands.
 */
function nonAtomic(inner: DocumentStore): DocumentStore {
  const held: Array<() => void> = [];
  let first = true;
  const barrier = () =>
    new Promise<void>((resolve) => {
      if (!first) return resolve();
      held.push(resolve);
      if (held.length >= RACERS) {
        first = false;
        for (const r of held) r();
      }
      setTimeout(resolve, 5000);
    });
  return {
    backend: 'memory',
    list: (c) => inner.list!(c),
    append: (n, k, item) => inner.append(n, k, item),
    read: (name) => inner.read(name),
    async write(name, value) {
      if (name.startsWith('branches/')) await barrier();
      // Blind: whatever is stored now is overwritten (the inner store's own check is satisfied each time).
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

describe(`${RACERS} racing allocators of one branch name`, () => {
  it('memory backend: exactly one wins', async () => {
    const ws = workspace();
    const store = createMemoryStore();
    const ctxOf = () =>
      createContext({ cwd: ws.root, env: { HUB_CACHE_DIR: 'off' }, definition: ws.manifestPath, store });
    const o = await race(ctxOf, 'agent/race');
    expectOneWinner(o, await leftBy(store, ws.repo, 'agent/race'));
  });

  it('the checks catch a non-atomic update (blind read-then-write): every racer wins the record', async () => {
    const ws = workspace();
    const inner = createMemoryStore();
    const store = nonAtomic(inner);
    const ctxOf = () =>
      createContext({ cwd: ws.root, env: { HUB_CACHE_DIR: 'off' }, definition: ws.manifestPath, store });
    const o = await race(ctxOf, 'agent/race');
    const left = await leftBy(inner, ws.repo, 'agent/race');
    // git still creates the branch once, but the records lost the race: more than one BranchAllocated, and the
    // losers were turned away by git (rule git_branch), not by the allocation.
    expect(left.allocatedEvents).toBeGreaterThan(1);
    expect(o.refused.filter((r) => r === 'one_allocation_per_name').length).toBeLessThan(RACERS - 1);
    expect(() => expectOneWinner(o, left)).toThrow();
  });

  it('local backend, concurrent calls (each its own store, as separate processes): exactly one wins', async () => {
    const ws = workspace();
    const ctxOf = () =>
      createContext({ cwd: ws.root, env: { HUB_CACHE_DIR: 'off' }, definition: ws.manifestPath });
    const o = await race(ctxOf, 'agent/race');
    const store = ctxOf().store().store;
    expectOneWinner(o, await leftBy(store, ws.repo, 'agent/race'));
  });

  it('local backend, real CLI processes: exactly one exits 0, the others are refused naming the winner', async () => {
    const ws = workspace();
    const runs = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        hubAsync(ws.manifestPath, [
          'branch',
          'allocate',
          '--repository',
          'platform/identity',
          '--agent-id',
          `p${i}`,
          '--task-id',
          `t${i}`,
          '--name',
          'agent/cli-race',
          '--json',
        ]),
      ),
    );
    const winners = runs.filter((r) => r.code === 0);
    expect(winners).toHaveLength(1);
    const winner = JSON.parse(winners[0]!.out).allocation.agent_id as string;
    for (const r of runs.filter((x) => x.code !== 0)) {
      expect(r.code).toBe(1);
      const err = JSON.parse(r.out.slice(r.out.indexOf('{'))).error;
      expect(err).toMatchObject({
        code: 'refused',
        details: { rule: 'one_allocation_per_name', holder: { agent_id: winner } },
      });
    }
    const doc = JSON.parse(readFileSync(join(ws.root, '.hub/branches/platform~identity.json'), 'utf8'));
    expect(doc.allocations).toHaveLength(1);
    expect(git(ws.repo, ['branch', '--list', 'agent/cli-race'])).toContain('agent/cli-race');
  });

  describe('http backend (a hub server holds the records; each client creates the branch in its own checkout)', () => {
    let server: ReturnType<typeof workspace>;
    let client: ReturnType<typeof workspace>;
    let srv: RunningServer;
    beforeAll(async () => {
      server = workspace();
      client = workspace();
      srv = await startTestServer({ root: server.root });
    });
    afterAll(async () => {
      await srv?.close();
    });

    it('exactly one wins; the record is on the server, the branch in the client checkout', async () => {
      const env = { HUB_CACHE_DIR: 'off', HUB_STATE_BACKEND: 'http', HUB_STATE_URL: srv.base };
      const ctxOf = () => createContext({ cwd: client.root, env, definition: client.manifestPath });
      const o = await race(ctxOf, 'agent/race');
      const onServer = createContext({
        cwd: server.root,
        env: { HUB_CACHE_DIR: 'off' },
        definition: server.manifestPath,
      });
      expectOneWinner(o, await leftBy(onServer.store().store, client.repo, 'agent/race'));
      expect(git(server.repo, ['branch', '--list', 'agent/race'])).toBe('');
    });
  });
});
