// Shared by the merge room's tests: a real repository, a memory store and the deps integrate/promote/rollup need.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createTempDir, git, makeGitRepo, removeTempDir } from '../../test/fixtures/index.js';
import { EventsDocSchema, readRecordedEvents } from '../coord/index.js';
import { HubError } from '../infra/index.js';
import { createMemoryStore, type DocumentStore } from '../state/index.js';
import type { MergeDeps, MergeTarget } from './deps.js';
import { checkEnqueue, recordEnqueue } from './requests.js';
import { type MergeConfig, mergeSettings } from './settings.js';

export const temps: string[] = [];
/** Call from afterAll. */
export function removeTemps(): void {
  for (const t of temps.splice(0)) removeTempDir(t);
}

export const BASE = { 'README.md': '# repo\n', 'shared.txt': 'base\n', 'gen/out.txt': 'generated base\n' };

/** A repository on `main` with an `integration` branch, a fresh memory store and a temp folder of its own. */
export type Setup = ReturnType<typeof setup>;

export function setup(config: Partial<MergeConfig> = {}) {
  const dir = createTempDir('hub-merge-');
  temps.push(dir);
  const root = makeGitRepo(join(dir, 'repo'), BASE);
  git(root, ['branch', 'integration']);
  const tmpRoot = join(dir, 'tmp');
  git(dir, ['init', '-q', tmpRoot]);
  const store = createMemoryStore();
  const deps: MergeDeps = {
    store,
    retries: 5,
    now: () => new Date(),
    // biome-ignore lint/style/noProcessEnv: git and the commands must still find programs on the PATH of the test.
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    tmpRoot,
    settings: mergeSettings({ validators: [], regenerate: [], timeout_ms: 60_000, ...config }),
    branchPrefix: 'agent/',
    integrator: 'test:1',
  };
  const target: MergeTarget = { id: 'p/r', key: 'p~r', root };
  return { dir, root, tmpRoot, store, deps, target };
}

export async function enqueue(s: Setup, source: string, into = 'integration', agent_id?: string) {
  const req = { source_branch: source, target_branch: into, ...(agent_id ? { agent_id } : {}) };
  const heads = await checkEnqueue(s.target, req);
  return (await recordEnqueue(s.deps, s.target, { ...req, ...heads })).merge;
}

export async function events(store: DocumentStore) {
  return EventsDocSchema.parse({ events: await readRecordedEvents(store) }).events.filter(
    (e) => e.source === 'merge',
  );
}

export const fail = async (p: Promise<unknown>): Promise<HubError> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, 'expected a HubError').toBeInstanceOf(HubError);
  return e as HubError;
};

/** Only the main checkout is left: every temporary merge worktree was removed, its folder too. */
export function noTempLeft(s: Setup) {
  expect(git(s.root, ['worktree', 'list', '--porcelain']).match(/^worktree /gm)).toHaveLength(1);
  expect(readdirSync(s.tmpRoot).filter((n) => n.startsWith('hub-merge-'))).toEqual([]);
}
