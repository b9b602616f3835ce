import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, git, removeTempDir } from '../../test/fixtures/index.js';
import { Catalog, checkoutsOf } from '../catalog/index.js';
import { DOCS } from '../coord/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { readManifestFile } from '../model/index.js';
import { createMemoryStore } from '../state/index.js';
import { touchAgent } from './agents.js';
import { resolveRepository } from './repository-ref.js';
import {
  adoptWorktree,
  createTaskWorktree,
  createWorktree,
  listWorktrees,
  type WorktreeConfig,
} from './worktrees.js';
import type { WorktreeDeps } from './worktrees-record.js';
import { destroyWorktree, gcWorktrees } from './worktrees-remove.js';

const thrown = async (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

const IGNORES = '.env\nnode_modules/\nconfig.local.json\nlinked-out\n';

function setup() {
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

type Env = ReturnType<typeof setup>;
let env: Env;
beforeEach(() => {
  env = setup();
});

const create = async (
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

const events = async (e: Env) =>
  ((await e.deps.store.read(DOCS.events)).value as { events?: Array<{ kind: string; source: string }> })
    ?.events ?? [];

describe('worktree create', () => {
  it('makes a real git worktree at <worktrees>/<agent>/<project>~<repo>/<task> and records it', async () => {
    const r = await create(env);
    const path = join(env.ws.root, '.worktrees', 'agent-1', 'platform~identity', 'T1');
    expect(r.worktree).toMatchObject({
      path,
      repository: 'platform/identity',
      branch: 'agent/T1',
      agent_id: 'agent-1',
      task_id: 'T1',
      status: 'active',
      common_dir: join(env.main, '.git'),
      git_dir: join(env.main, '.git', 'worktrees', 'T1'),
      host: 'host-a',
      created_at: '2026-03-01T10:00:00.000Z',
    });
    expect(r.created_branch).toBe(false);
    expect(git(path, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('agent/T1');
    expect(git(env.main, ['worktree', 'list', '--porcelain'])).toContain(`worktree ${path}`);
    const stored = (await env.deps.store.read('worktrees/platform~identity')).value as {
      worktrees: unknown[];
    };
    expect(stored.worktrees).toEqual([r.worktree]);
    const kinds = (await events(env)).map((ev) => [ev.kind, ev.source]);
    expect(kinds).toEqual([['WorktreeCreated', 'acl']]);
  });

  it('refuses a missing branch unless base names where to start it', async () => {
    const e = (await thrown(create(env, { branch: 'agent/none' }))) as NotFoundError;
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.details).toMatchObject({ field: 'branch', rule: 'existing_branch' });
    const r = await create(env, { branch: 'agent/new', base: 'main' });
    expect(r.created_branch).toBe(true);
    expect(git(env.main, ['rev-parse', 'agent/new'])).toBe(git(env.main, ['rev-parse', 'main']));
  });

  it('refuses a branch checked out in another worktree, naming where', async () => {
    const first = await create(env);
    const e = (await thrown(create(env, { taskId: 'T9' }))) as RefusedError;
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.httpStatus).toBe(409);
    expect(e.details).toMatchObject({ rule: 'branch_checked_out', checked_out_at: first.worktree.path });
    const main = (await thrown(create(env, { taskId: 'T8', branch: 'main' }))) as RefusedError;
    expect(main.details).toMatchObject({ rule: 'branch_checked_out', checked_out_at: env.main });
  });

  it('refuses ids that would leave the layout and branch names git would read as options', async () => {
    for (const [over, field] of [
      [{ agentId: '../x' }, 'agent_id'],
      [{ taskId: 'a/b' }, 'task_id'],
      [{ taskId: '..' }, 'task_id'],
      [{ taskId: 'x'.repeat(5000) }, 'task_id'],
      [{ branch: '-x' }, 'branch'],
      [{ branch: 'a..b' }, 'branch'],
    ] as const) {
      const e = (await thrown(create(env, over))) as ValidationError;
      expect(e, JSON.stringify(over).slice(0, 60)).toBeInstanceOf(ValidationError);
      expect(e.details).toMatchObject({ field });
    }
    expect(existsSync(join(env.ws.root, 'x'))).toBe(false);
    expect(existsSync(join(env.ws.root, '.worktrees'))).toBe(false);
  });

  it('refuses a worktrees_path that leads outside the workspace through a symlink, unless trusted config allows it', async () => {
    const outside = createTempDir('hub-wt-outside-');
    temps.push(outside);
    symlinkSync(outside, join(env.ws.root, 'wt-link'));
    const cfg = { layout: { ...env.cfg.layout, worktreesPath: 'wt-link' } };
    const e = (await thrown(create(env, {}, cfg))) as RefusedError;
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.details).toMatchObject({
      field: 'workspace.worktrees_path',
      rule: 'worktrees_path_inside_workspace',
    });
    expect(lstatSync(outside).isDirectory() && !existsSync(join(outside, 'agent-1'))).toBe(true);
    const abs = {
      layout: { ...env.cfg.layout, worktreesPath: join(outside, 'wts'), allowedOutside: [outside] },
    };
    const r = await create(env, {}, abs);
    expect(r.worktree.path).toBe(join(outside, 'wts', 'agent-1', 'platform~identity', 'T1'));
  });

  it('refuses an agent folder symlinked out of the worktrees folder', async () => {
    const outside = createTempDir('hub-wt-outside-');
    temps.push(outside);
    mkdirSync(join(env.ws.root, '.worktrees'));
    symlinkSync(outside, join(env.ws.root, '.worktrees', 'agent-1'));
    const e = (await thrown(create(env))) as RefusedError;
    expect(e.details).toMatchObject({ rule: 'inside_worktrees_path' });
  });

  it('keeps every record of concurrent creates in one repository (memory store)', async () => {
    git(env.main, ['branch', 'agent/T3']);
    git(env.main, ['branch', 'agent/T4']);
    const made = await Promise.all(
      ['T1', 'T2', 'T3', 'T4'].map((t, i) =>
        create(env, { agentId: `agent-${i}`, taskId: t, branch: `agent/${t}` }),
      ),
    );
    expect((await listWorktrees(env.deps)).map((w) => w.id).sort()).toEqual(
      made.map((m) => m.worktree.id).sort(),
    );
  });

  it('keeps one worktree per agent and task of a repository', async () => {
    await create(env);
    const e = (await thrown(create(env, { branch: 'agent/T2' }))) as RefusedError;
    // The layout path is taken, so the second create is refused before git runs.
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.httpStatus).toBe(409);
  });
});

describe('post_create hooks', () => {
  const withHooks = (pc: WorktreeConfig['postCreate']) => ({ ...env.cfg, postCreate: pc });

  it('symlinks and copies files git ignores in the main checkout', async () => {
    const r = await create(
      env,
      {},
      withHooks({ symlink: ['.env', 'node_modules'], copy: ['config.local.json'] }),
    );
    const p = r.worktree.path;
    expect(readlinkSync(join(p, '.env'))).toBe(join(env.main, '.env'));
    expect(readFileSync(join(p, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(lstatSync(join(p, 'node_modules')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(p, 'config.local.json')).isFile()).toBe(true);
    expect(r.post_create).toMatchObject({
      symlinked: ['.env', 'node_modules'],
      copied: ['config.local.json'],
    });
    expect(r.worktree.hooked).toEqual(['.env', 'node_modules', 'config.local.json']);
    // The hooked symlink to an ignored folder (pattern `node_modules/`) does not count as untracked work.
    const out = await destroyWorktree(env.deps, env.repoOf, { id: r.worktree.id, cwd: env.ws.root }, false);
    expect(out.action).toBe('removed');
    expect(existsSync(join(env.main, 'node_modules/pkg/index.js'))).toBe(true);
    expect(existsSync(join(env.main, '.env'))).toBe(true);
  });

  it('refuses a tracked file, a path escaping the checkout and a source symlinked outside, leaving nothing behind', async () => {
    const outside = createTempDir('hub-wt-outside-');
    temps.push(outside);
    writeFileSync(join(outside, 'secret'), 's');
    symlinkSync(outside, join(env.main, 'linked-out'));
    const cases: Array<[WorktreeConfig['postCreate'], string]> = [
      [{ symlink: ['a.txt'] }, 'gitignored'],
      [{ copy: ['../../etc/passwd'] }, 'inside_repository'],
      [{ symlink: ['/etc/passwd'] }, 'inside_repository'],
      [{ copy: ['linked-out/secret'] }, 'inside_repository'],
      [{ copy: ['.git/config'] }, 'not_git_dir'],
    ];
    for (const [pc, rule] of cases) {
      const e = (await thrown(create(env, {}, withHooks(pc)))) as RefusedError;
      expect(e, JSON.stringify(pc)).toBeInstanceOf(RefusedError);
      expect(e.details).toMatchObject({ rule });
    }
    expect(existsSync(join(env.ws.root, '.worktrees', 'agent-1', 'platform~identity', 'T1'))).toBe(false);
    expect(await listWorktrees(env.deps)).toEqual([]);
  });

  it('runs the command without a shell in the new worktree and reports its output', async () => {
    const argv = [
      process.execPath,
      '-e',
      'console.log(process.cwd() + "|" + process.argv[1])',
      'a; touch pwned',
    ];
    const r = await create(env, {}, withHooks({ command: argv }));
    expect(r.post_create.command).toMatchObject({ exit_code: 0, timed_out: false });
    expect(r.post_create.command!.stdout.trim()).toBe(`${r.worktree.path}|a; touch pwned`);
    expect(existsSync(join(r.worktree.path, 'pwned'))).toBe(false);
    const failing = await create(
      env,
      { taskId: 'T2', branch: 'agent/T2' },
      withHooks({ command: [process.execPath, '-e', 'process.exit(3)'] }),
    );
    expect(failing.post_create.command).toMatchObject({ exit_code: 3 });
    expect(existsSync(failing.worktree.path)).toBe(true);
  });
});

describe('worktree list', () => {
  it('recognises a moved worktree, a missing one and a pruned one by git common dir', async () => {
    const a = await create(env);
    const b = await create(env, { taskId: 'T2', branch: 'agent/T2' });
    let list = await listWorktrees(env.deps);
    expect(list.map((w) => w.state)).toEqual(['present', 'present']);
    const moved = join(env.ws.root, '.worktrees', 'moved-by-hand');
    git(env.main, ['worktree', 'move', a.worktree.path, moved]);
    rmSync(b.worktree.path, { recursive: true, force: true });
    list = await listWorktrees(env.deps);
    expect(list.find((w) => w.id === a.worktree.id)).toMatchObject({ state: 'moved', current_path: moved });
    expect(list.find((w) => w.id === b.worktree.id)).toMatchObject({ state: 'missing', current_path: null });
    git(env.main, ['worktree', 'prune']);
    list = await listWorktrees(env.deps);
    expect(list.find((w) => w.id === b.worktree.id)).toMatchObject({ state: 'pruned' });
    expect(await listWorktrees(env.deps, { agentId: 'nobody' })).toEqual([]);
  });

  it('shows records of another machine as elsewhere', async () => {
    await create(env);
    const other = { ...env.deps, host: 'host-b' };
    expect((await listWorktrees(other))[0]).toMatchObject({ state: 'elsewhere' });
    // gc on another machine never touches it.
    expect((await gcWorktrees(other, env.repoOf, { dryRun: false, force: true })).results).toEqual([]);
  });
});

describe('worktree destroy', () => {
  it('removes a clean worktree with git worktree remove, keeps the branch and records the event', async () => {
    const r = await create(env);
    const out = await destroyWorktree(env.deps, env.repoOf, { id: r.worktree.id, cwd: env.ws.root }, false);
    expect(out).toMatchObject({ action: 'removed', forced: false, reasons: [] });
    expect(existsSync(r.worktree.path)).toBe(false);
    expect(git(env.main, ['branch', '--list', 'agent/T1'])).toContain('agent/T1');
    expect(await listWorktrees(env.deps)).toEqual([]);
    expect((await events(env)).map((e) => e.kind)).toEqual(['WorktreeCreated', 'WorktreeDestroyed']);
  });

  it('keeps a worktree with uncommitted changes, untracked files or unpushed commits unless forced, saying why', async () => {
    const r = await create(env);
    const p = r.worktree.path;
    writeFileSync(join(p, 'a.txt'), 'changed\n');
    writeFileSync(join(p, 'new.txt'), 'new\n');
    git(p, ['commit', '-q', '--allow-empty', '-m', 'work']);
    const e = (await thrown(
      destroyWorktree(env.deps, env.repoOf, { path: p, cwd: env.ws.root }, false),
    )) as RefusedError;
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.httpStatus).toBe(409);
    expect(e.message).toContain('uncommitted changes');
    expect((e.details as { reasons: unknown }).reasons).toEqual([
      { reason: 'uncommitted_changes', count: 1, paths: ['a.txt'] },
      { reason: 'untracked_files', count: 1, paths: ['new.txt'] },
      { reason: 'unpushed_commits', count: 1, against: 'local_branches' },
    ]);
    expect(readFileSync(join(p, 'a.txt'), 'utf8')).toBe('changed\n');
    const forced = await destroyWorktree(env.deps, env.repoOf, { path: p, cwd: env.ws.root }, true);
    expect(forced).toMatchObject({ action: 'removed', forced: true });
    expect(existsSync(p)).toBe(false);
  });

  it('measures unpushed commits against remote-tracking branches when the repository has a remote', async () => {
    const bare = createTempDir('hub-wt-remote-');
    temps.push(bare);
    git(bare, ['init', '-q', '--bare']);
    git(env.main, ['remote', 'add', 'origin', bare]);
    git(env.main, ['push', '-q', 'origin', 'main']);
    const r = await create(env);
    git(r.worktree.path, ['commit', '-q', '--allow-empty', '-m', 'work']);
    const e = (await thrown(
      destroyWorktree(env.deps, env.repoOf, { id: r.worktree.id, cwd: env.ws.root }, false),
    )) as RefusedError;
    expect((e.details as { reasons: unknown }).reasons).toEqual([
      { reason: 'unpushed_commits', count: 1, against: 'remotes' },
    ]);
    git(r.worktree.path, ['push', '-q', 'origin', 'agent/T1']);
    expect(
      (await destroyWorktree(env.deps, env.repoOf, { id: r.worktree.id, cwd: env.ws.root }, false)).action,
    ).toBe('removed');
  });

  it('drops the record of a pruned worktree and names an unknown one', async () => {
    const r = await create(env);
    rmSync(r.worktree.path, { recursive: true, force: true });
    const out = await destroyWorktree(env.deps, env.repoOf, { id: r.worktree.id, cwd: env.ws.root }, false);
    expect(out.action).toBe('pruned');
    expect(git(env.main, ['worktree', 'list'])).not.toContain('T1');
    expect(
      await thrown(destroyWorktree(env.deps, env.repoOf, { id: 'wt-none', cwd: env.ws.root }, false)),
    ).toBeInstanceOf(NotFoundError);
  });
});

describe('worktree gc', () => {
  it('reports only on --dry-run, skips dirty ones with reasons, removes clean ones, and --force removes the rest', async () => {
    const clean = await create(env);
    const dirty = await create(env, { taskId: 'T2', branch: 'agent/T2' });
    writeFileSync(join(dirty.worktree.path, 'untracked.txt'), 'u');
    // Agents touched at create live 30 minutes.
    expect((await gcWorktrees(env.deps, env.repoOf, { dryRun: false, force: false })).results).toEqual([]);
    env.advance(31 * 60_000);
    const dry = await gcWorktrees(env.deps, env.repoOf, { dryRun: true, force: false });
    expect(dry.results.map((r) => [r.task_id, r.action, r.why, r.reasons.map((x) => x.reason)])).toEqual([
      ['T1', 'would_remove', ['agent_not_live'], []],
      ['T2', 'skipped', ['agent_not_live'], ['untracked_files']],
    ]);
    expect(existsSync(clean.worktree.path)).toBe(true);
    expect(await listWorktrees(env.deps)).toHaveLength(2);
    const real = await gcWorktrees(env.deps, env.repoOf, { dryRun: false, force: false });
    expect(real.results.map((r) => [r.task_id, r.action])).toEqual([
      ['T1', 'removed'],
      ['T2', 'skipped'],
    ]);
    expect(existsSync(clean.worktree.path)).toBe(false);
    expect(existsSync(join(dirty.worktree.path, 'untracked.txt'))).toBe(true);
    const forced = await gcWorktrees(env.deps, env.repoOf, { dryRun: false, force: true });
    expect(forced.results.map((r) => [r.task_id, r.action, r.forced])).toEqual([['T2', 'removed', true]]);
    expect(existsSync(dirty.worktree.path)).toBe(false);
  });

  it('prunes the record of a worktree whose folder is gone, even for a live agent', async () => {
    const r = await create(env);
    rmSync(r.worktree.path, { recursive: true, force: true });
    const dry = await gcWorktrees(env.deps, env.repoOf, { dryRun: true, force: false });
    expect(dry.results.map((x) => [x.action, x.state, x.why])).toEqual([
      ['would_prune', 'missing', ['missing']],
    ]);
    expect(git(env.main, ['worktree', 'list', '--porcelain'])).toContain('prunable');
    const out = await gcWorktrees(env.deps, env.repoOf, { dryRun: false, force: false });
    expect(out.results.map((x) => x.action)).toEqual(['pruned']);
    expect(git(env.main, ['worktree', 'list', '--porcelain'])).not.toContain('prunable');
    expect(await listWorktrees(env.deps)).toEqual([]);
    expect((await events(env)).map((e) => e.kind)).toContain('WorktreePruned');
  });
});

describe('worktree adopt', () => {
  it('records a worktree made by hand, once', async () => {
    const p = join(env.ws.root, 'handmade');
    git(env.main, ['worktree', 'add', '-q', p, 'agent/T2']);
    const r = await adoptWorktree(env.deps, env.cfg, {
      target: await env.target(),
      path: 'handmade',
      cwd: env.ws.root,
      agentId: 'agent-2',
      taskId: 'T2',
    });
    expect(r.adopted).toBe(true);
    expect(r.worktree).toMatchObject({ path: p, branch: 'agent/T2', adopted: true, agent_id: 'agent-2' });
    const again = await adoptWorktree(env.deps, env.cfg, {
      target: await env.target(),
      path: p,
      cwd: '/',
      agentId: 'agent-2',
      taskId: 'T2',
    });
    expect(again).toEqual({ worktree: r.worktree, adopted: false });
    const other = (await thrown(
      adoptWorktree(env.deps, env.cfg, {
        target: await env.target(),
        path: p,
        cwd: '/',
        agentId: 'agent-3',
        taskId: 'T2',
      }),
    )) as RefusedError;
    expect(other.details).toMatchObject({ rule: 'one_record_per_worktree' });
    expect((await listWorktrees(env.deps))[0]).toMatchObject({ state: 'present' });
    expect((await events(env)).map((e) => e.kind)).toEqual(['WorktreeAdopted']);
  });

  it('refuses the main checkout, a worktree of another repository and a folder outside the workspace', async () => {
    const target = await env.target();
    const adopt = (path: string, t = target) =>
      thrown(
        adoptWorktree(env.deps, env.cfg, {
          target: t,
          path,
          cwd: env.ws.root,
          agentId: 'agent-1',
          taskId: 'T1',
        }),
      );
    expect(((await adopt(env.main)) as RefusedError).details).toMatchObject({ rule: 'linked_worktree' });
    const billing = env.ws.repoDirs['platform/billing']!;
    git(billing, ['worktree', 'add', '-q', '-b', 'b2', join(env.ws.root, 'bw')]);
    expect(((await adopt(join(env.ws.root, 'bw'))) as RefusedError).details).toMatchObject({
      rule: 'worktree_of_repository',
    });
    const outside = createTempDir('hub-wt-outside-');
    temps.push(outside);
    git(env.main, ['worktree', 'add', '-q', join(outside, 'w'), 'agent/T1']);
    expect(((await adopt(join(outside, 'w'))) as RefusedError).details).toMatchObject({
      rule: 'inside_workspace',
    });
    expect(((await adopt(join(env.ws.root, 'nope'))) as NotFoundError).details).toMatchObject({
      rule: 'exists',
    });
  });
});

describe('createTaskWorktree (coordination.worktree_per_task)', () => {
  it('does nothing when the setting is off, creates once when on, and answers the same worktree on a retry', async () => {
    const input = { target: await env.target(), agentId: 'agent-1', taskId: 'T1', branch: 'agent/T1' };
    expect(await createTaskWorktree(env.deps, env.cfg, input)).toBeNull();
    const on = { ...env.cfg, perTask: true };
    const first = await createTaskWorktree(env.deps, on, input);
    const again = await createTaskWorktree(env.deps, on, input);
    expect(again?.worktree).toEqual(first?.worktree);
    expect(await listWorktrees(env.deps)).toHaveLength(1);
  });

  it('touches the agent, so gc knows it is live', async () => {
    await touchAgent(env.deps, 'agent-1');
    await create(env);
    expect((await gcWorktrees(env.deps, env.repoOf, { dryRun: true, force: false })).results).toEqual([]);
  });
});
