// The shared set-up of the worktree tests: a real workspace with two git repositories (ignored files, extra
// branches), a memory store and a clock the tests move.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWorkspace, git, removeTempDir } from '../../test/fixtures/index.js';
import { Catalog, checkoutsOf } from '../catalog/index.js';
import { readRecordedEvents } from '../coord/index.js';
import { readManifestFile } from '../model/index.js';
import { createMemoryStore } from '../state/index.js';
import { resolveRepository } from './repository-ref.js';
import { createWorktree, type WorktreeConfig } from './worktrees.js';
import type { WorktreeDeps } from './worktrees-record.js';

export const thrown = async (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

const temps: string[] = [];

/** Marks a temporary folder for removal after the file's tests. */
export function keepTemp(dir: string): void {
  temps.push(dir);
}

/** Removes every workspace `setup` built (each test file calls it in afterAll). */
export function removeWorktreeTemps(): void {
  for (const t of temps.splice(0)) removeTempDir(t);
}

const IGNORES = '.env\nnode_modules/\nconfig.local.json\nlinked-out\n';

export function setup() {
  const ws = buildWorkspace({
    projects: [
      {
        name: 'platform',
        repos: [
          { name: 'identity', files: { '.gitignore': IGNORES, 'a.txt': 'a\n', 'src/b.txt': 'b\n' } },
          { name: 'billing', files: { 'x.txt': 'x\n' } },
        ],
      },
    ],
  });
  temps.push(ws.root);
  const main = ws.repoDirs['platform/identity']!;
  git(main, ['branch', 'agent/T1']);
  git(main, ['branch', 'agent/T2']);
  writeFileSync(join(main, '.env'), 'SECRET=1\n');
  mkdirSync(join(main, 'node_modules/pkg'), { recursive: true });
  writeFileSync(join(main, 'node_modules/pkg/index.js'), 'x');
  writeFileSync(join(main, 'config.local.json'), '{}');
  const catalog = new Catalog(readManifestFile(ws.manifestPath));
  const repoDeps = { catalog, checkouts: checkoutsOf(catalog), definitionRoot: ws.root };
  let now = new Date('2026-03-01T10:00:00Z');
  const deps: WorktreeDeps = {
    store: createMemoryStore(),
    retries: 1,
    now: () => now,
    host: 'host-a',
    // biome-ignore lint/style/noProcessEnv: the hook command must still find programs on the PATH of the test.
    env: { PATH: process.env.PATH },
  };
  const cfg: WorktreeConfig = {
    layout: { workspaceRoot: ws.root, worktreesPath: '.worktrees/', allowedOutside: [] },
  };
  const repoOf = (id: string) => resolveRepository(repoDeps, id);
  return {
    ws,
    main,
    deps,
    cfg,
    repoOf,
    target: () => repoOf('platform/identity'),
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
  };
}

export type Env = ReturnType<typeof setup>;

export const create = async (
  e: Env,
  over: Partial<{ agentId: string; taskId: string; branch: string; base: string }> = {},
  cfg = e.cfg,
) =>
  createWorktree(e.deps, cfg, {
    target: await e.target(),
    agentId: 'agent-1',
    taskId: 'T1',
    branch: 'agent/T1',
    ...over,
  });

export const events = async (e: Env) => readRecordedEvents(e.deps.store);
