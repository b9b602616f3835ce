// Lease fences and worktree ports under concurrent writers, on every state backend the conformance suite covers:
// local files (four handles on one .hub/), a hub server on port 0, DynamoDB (dynalite), and MongoDB when
// HUB_TEST_MONGODB_URL names a server. Eight agents create worktrees at once with two ports each from a range of
// exactly sixteen: every creation must succeed and no port may be handed out twice. Eight agents race for one
// task's lease, releasing it after each grant: the fences come out 1, 2, 3... with none twice.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLease, portsDoc, releaseLease } from '../src/acl/index.js';
import { createWorktree, type WorktreeConfig } from '../src/acl/worktrees.js';
import { removeWorktreeTemps, setup } from '../src/acl/worktrees-test-env.js';
import { RefusedError } from '../src/infra/index.js';
import {
  createHttpStore,
  createLocalStore,
  createMongoStore,
  type DocumentStore,
  resolveMongoTarget,
} from '../src/state/index.js';
import { dynaliteStore, startDynalite } from './fixtures/dynalite.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { startTestServer } from './http-server.js';

const CREATORS = 8;
const temps: string[] = [];
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of closers) await c().catch(() => undefined);
  for (const t of temps) removeTempDir(t);
  removeWorktreeTemps();
});

/** A backend as creators see it: one store handle per creator (as separate processes would open). */
type Backend = () => Promise<() => DocumentStore>;

const backends: Array<[string, Backend]> = [
  [
    'local',
    async () => {
      const dir = createTempDir('hub-ports-local-');
      temps.push(dir);
      mkdirSync(join(dir, '.hub'));
      return () => createLocalStore({ dir: join(dir, '.hub') });
    },
  ],
  [
    'http (hub server)',
    async () => {
      const dir = createTempDir('hub-ports-http-');
      temps.push(dir);
      const srv = await startTestServer({ root: dir });
      closers.push(() => srv.close());
      return () => createHttpStore({ url: srv.base, timeoutMs: 20_000 });
    },
  ],
  [
    'dynamodb (dynalite)',
    async () => {
      const d = await startDynalite();
      closers.push(() => d.close());
      await dynaliteStore(d, { workspaceId: 'init' }).init!();
      const workspaceId = randomUUID();
      return () => dynaliteStore(d, { workspaceId });
    },
  ],
];
const MONGO = process.env.HUB_TEST_MONGODB_URL;
if (MONGO)
  backends.push([
    'mongodb',
    async () => {
      const target = resolveMongoTarget({ url: MONGO, collection: 'hub_ports_test' });
      const workspaceId = `ports-${randomUUID()}`;
      return () => createMongoStore({ target, orgId: 'ports', workspaceId, timeoutMs: 10_000 });
    },
  ]);

describe('worktree ports: 8 concurrent creators never share a port', () => {
  for (const [name, backend] of backends) {
    it(name, async () => {
      const env = setup();
      const open = await backend();
      const cfg: WorktreeConfig = {
        ...env.cfg,
        ports: { count: 2, range: [42000, 42000 + 2 * CREATORS - 1] },
      };
      const target = await env.target();
      const results = await Promise.all(
        Array.from({ length: CREATORS }, (_, i) =>
          createWorktree({ ...env.deps, store: open(), retries: 100 }, cfg, {
            target,
            agentId: `agent-${i}`,
            taskId: `T-${i}`,
            branch: `agent/race-${i}`,
            base: 'main',
          }),
        ),
      );
      const ports = results.flatMap((r) => r.ports);
      expect(ports).toHaveLength(2 * CREATORS);
      expect(new Set(ports).size).toBe(2 * CREATORS);
      expect(ports.every((p) => p >= 42000 && p < 42000 + 2 * CREATORS)).toBe(true);
      // The stored leases say the same, one per worktree.
      const doc = (
        await open().read<{ leases: Array<{ worktree_id: string; ports: number[] }> }>(portsDoc('host-a'))
      ).value!;
      expect(doc.leases.map((l) => l.worktree_id).sort()).toEqual(results.map((r) => r.worktree.id).sort());
      expect(new Set(doc.leases.flatMap((l) => l.ports)).size).toBe(2 * CREATORS);
    });
  }
  if (!MONGO)
    it.skip('mongodb (skipped: set HUB_TEST_MONGODB_URL=mongodb://... to run it against a server)', () => {});
});

describe('lease fences: 8 racing acquirers get distinct, growing fences', () => {
  const repo = { id: 'race/fence', key: 'race~fence', root: undefined, self: false };
  for (const [name, backend] of backends) {
    it(name, async () => {
      const open = await backend();
      const grants: number[] = [];
      await Promise.all(
        Array.from({ length: CREATORS }, async (_, i) => {
          const deps = { store: open(), retries: 100, now: () => new Date() };
          for (let round = 0; round < 3; round++)
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
                // A refused agent waits a moment, as a real one does (an instant retry loop can starve the release).
                await new Promise((r) => setTimeout(r, 1 + Math.random() * 4));
              }
            }
        }),
      );
      // One live lease at a time: each grant saw the one before released, so fences came in order, none twice.
      expect(grants).toEqual(Array.from({ length: 3 * CREATORS }, (_, i) => i + 1));
    });
  }
});
