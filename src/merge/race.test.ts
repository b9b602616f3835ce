// Integrators race for one request: exactly one may claim it, every time, on every local backend (the http
// backend's race runs against a real server in src/ops/merge-ops.test.ts). The control runs the same race with
// a claim that reads, decides and writes without the atomic update, and shows the harness catches double claims.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { branchWith, createTempDir, git, makeGitRepo, removeTempDir } from '../../test/fixtures/index.js';
import { readDoc } from '../coord/index.js';
import { RefusedError } from '../infra/index.js';
import { createLocalStore, createMemoryStore, type DocumentStore } from '../state/index.js';
import type { MergeDeps, MergeTarget } from './deps.js';
import { integrateMerge } from './integrate.js';
import type { Transition } from './queue.js';
import { MergesDocSchema, mergesDocument } from './records.js';
import { checkEnqueue, recordEnqueue } from './requests.js';
import { mergeSettings } from './settings.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

const INTEGRATORS = 3;
const ROUNDS = 4;

function repo() {
  const dir = createTempDir('hub-merge-race-');
  temps.push(dir);
  const root = makeGitRepo(join(dir, 'repo'), { 'a.txt': 'a\n' });
  git(root, ['branch', 'integration']);
  return { dir, root };
}

/** A claim without the atomic update: read, decide, write what was read (last writer wins). */
const nonAtomicClaim = (store: DocumentStore) => async (target: MergeTarget, t: Transition) => {
  const name = mergesDocument(target.key);
  const doc = await readDoc({ store, retries: 0, now: () => new Date() }, name, MergesDocSchema);
  const m = doc.merges.find((x) => x.merge_id === t.merge_id)!;
  if (t.action === 'claim' && m.status !== 'queued') throw new RefusedError('taken', {}, 409);
  await new Promise((r) => setTimeout(r, 5));
  m.status = t.action === 'claim' ? 'running' : (t.status ?? 'failed');
  Object.assign(m, t.result ?? {});
  const cur = await store.read(name);
  doc.merges = doc.merges.map((x) => (x.merge_id === m.merge_id ? m : x));
  await store.write(name, doc, cur.etag ?? '""');
  return structuredClone(m);
};

async function race(store: DocumentStore, atomic: boolean): Promise<number[]> {
  const { root, dir } = repo();
  const target: MergeTarget = { id: 'p/r', key: 'p~r', root };
  const winners: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const source = `agent/r${r}`;
    branchWith(root, source, 'integration', { [`r${r}.txt`]: `${r}\n` });
    const req = { source_branch: source, target_branch: 'integration' };
    const base: MergeDeps = {
      store,
      retries: 20,
      now: () => new Date(),
      // biome-ignore lint/style/noProcessEnv: git and the commands must still find programs on the PATH of the test.
      env: { PATH: process.env.PATH },
      tmpRoot: dir,
      settings: mergeSettings(undefined),
      branchPrefix: 'agent/',
      integrator: 'race',
    };
    const m = (await recordEnqueue(base, target, { ...req, ...(await checkEnqueue(target, req)) })).merge;
    const outcomes = await Promise.allSettled(
      Array.from({ length: INTEGRATORS }, (_, i) =>
        integrateMerge(
          { ...base, integrator: `race-${i}`, ...(atomic ? {} : { transition: nonAtomicClaim(store) }) },
          target,
          { merge_id: m.merge_id },
        ),
      ),
    );
    for (const o of outcomes)
      if (o.status === 'rejected' && !(o.reason instanceof RefusedError)) throw o.reason;
    winners.push(outcomes.filter((o) => o.status === 'fulfilled').length);
  }
  return winners;
}

describe('racing integrators', () => {
  it.each([
    ['memory', () => createMemoryStore()],
    [
      'local',
      () => {
        const d = createTempDir('hub-merge-store-');
        temps.push(d);
        return createLocalStore({ dir: join(d, '.hub') });
      },
    ],
  ])('leave exactly one winner per request on the %s backend', async (_name, make) => {
    expect(await race(make(), true)).toEqual(Array(ROUNDS).fill(1));
  });

  it('control: a claim that reads then writes lets several integrators win', async () => {
    const winners = await race(createMemoryStore(), false);
    expect(Math.max(...winners)).toBeGreaterThan(1);
  });
});
