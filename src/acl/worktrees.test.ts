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
import { createTempDir, git } from '../../test/fixtures/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { AGENT_ID_RE } from './liveness.js';
import { listWorktrees, type WorktreeConfig } from './worktrees.js';
import { destroyWorktree, gcWorktrees } from './worktrees-remove.js';
import {
  create,
  type Env,
  events,
  keepTemp,
  removeWorktreeTemps,
  setup,
  thrown,
} from './worktrees-test-env.js';

let env: Env;
beforeEach(() => {
  env = setup();
});
afterAll(removeWorktreeTemps);

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

  it('checks task and agent ids exactly as they name folders: no whitespace around, no control or line separator (issue 25)', async () => {
    const cases = [
      ['T1\n', 'no_surrounding_whitespace'],
      ['T1\t', 'no_surrounding_whitespace'],
      [' T1', 'no_surrounding_whitespace'],
      ['T1\u2028', 'no_surrounding_whitespace'],
      ['T\u20291', 'no_control_characters'],
      ['T\u00001', 'no_control_characters'],
      ['T\u202e1', 'no_control_characters'],
      ['T 1', AGENT_ID_RE.source],
    ] as const;
    for (const [id, rule] of cases)
      for (const [over, field] of [
        [{ taskId: id }, 'task_id'],
        [{ agentId: id }, 'agent_id'],
      ] as const) {
        const e = (await thrown(create(env, over))) as ValidationError;
        expect(e, JSON.stringify(over)).toBeInstanceOf(ValidationError);
        expect(e.details, JSON.stringify(over)).toMatchObject({ field, rule, value: id });
        expect(e.message).toMatch(new RegExp(`^${field}: "`));
        if (rule !== AGENT_ID_RE.source)
          expect(e.message).toMatch(/\(U\+[0-9A-F]{4}\)|character U\+[0-9A-F]{4}/);
      }
    expect(existsSync(join(env.ws.root, '.worktrees'))).toBe(false);
  });

  it('refuses a worktrees_path that leads outside the workspace through a symlink, unless trusted config allows it', async () => {
    const outside = createTempDir('hub-wt-outside-');
    keepTemp(outside);
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
    keepTemp(outside);
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
    keepTemp(outside);
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
