import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, git } from '../../test/fixtures/index.js';
import { NotFoundError, RefusedError } from '../infra/index.js';
import { touchAgent } from './agents.js';
import { adoptWorktree, createTaskWorktree, listWorktrees } from './worktrees.js';
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

/** Gives the repository an `origin` that has `main`: its remote-tracking refs are then what "pushed" means. */
function withRemote(e: Env): void {
  const bare = createTempDir('hub-wt-remote-');
  keepTemp(bare);
  git(bare, ['init', '-q', '--bare']);
  git(e.main, ['remote', 'add', 'origin', bare]);
  git(e.main, ['push', '-q', 'origin', 'main']);
}
afterAll(removeWorktreeTemps);

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
    const work = git(p, ['rev-parse', 'HEAD']);
    expect((e.details as { reasons: unknown }).reasons).toEqual([
      { reason: 'uncommitted_changes', count: 1, paths: ['a.txt'] },
      { reason: 'untracked_files', count: 1, paths: ['new.txt'] },
      { reason: 'unpushed_commits', count: 1, commits: [{ sha: work, subject: 'work' }] },
    ]);
    expect(readFileSync(join(p, 'a.txt'), 'utf8')).toBe('changed\n');
    const forced = await destroyWorktree(env.deps, env.repoOf, { path: p, cwd: env.ws.root }, true);
    expect(forced).toMatchObject({ action: 'removed', forced: true });
    expect(existsSync(p)).toBe(false);
  });

  it('counts a commit a remote-tracking branch holds as kept: pushing frees the worktree', async () => {
    withRemote(env);
    const r = await create(env);
    git(r.worktree.path, ['commit', '-q', '--allow-empty', '-m', 'work']);
    const e = (await thrown(
      destroyWorktree(env.deps, env.repoOf, { id: r.worktree.id, cwd: env.ws.root }, false),
    )) as RefusedError;
    expect((e.details as { reasons: unknown }).reasons).toEqual([
      {
        reason: 'unpushed_commits',
        count: 1,
        commits: [{ sha: git(r.worktree.path, ['rev-parse', 'HEAD']), subject: 'work' }],
      },
    ]);
    git(r.worktree.path, ['push', '-q', 'origin', 'agent/T1']);
    expect(
      (await destroyWorktree(env.deps, env.repoOf, { id: r.worktree.id, cwd: env.ws.root }, false)).action,
    ).toBe('removed');
  });

  it('removes a worktree whose commits were merged locally into another branch (not pushed) without --force', async () => {
    withRemote(env);
    const r = await create(env);
    git(r.worktree.path, ['commit', '-q', '--allow-empty', '-m', 'work']);
    // What merge integrate does: the work lands on a local branch of the checkout; nothing is pushed.
    git(env.main, ['merge', '-q', '--no-ff', '-m', 'land agent/T1', 'agent/T1']);
    const out = await destroyWorktree(env.deps, env.repoOf, { id: r.worktree.id, cwd: env.ws.root }, false);
    expect(out).toMatchObject({ action: 'removed', forced: false, reasons: [] });
    expect(existsSync(r.worktree.path)).toBe(false);
  });

  it('counts a commit a tag holds as kept', async () => {
    withRemote(env);
    const r = await create(env);
    git(r.worktree.path, ['commit', '-q', '--allow-empty', '-m', 'tagged']);
    git(env.main, ['tag', 'v-work', 'agent/T1']);
    expect(
      (await destroyWorktree(env.deps, env.repoOf, { id: r.worktree.id, cwd: env.ws.root }, false)).action,
    ).toBe('removed');
  });

  it('names what would be lost: the count and the first commits with their subjects, newest first', async () => {
    withRemote(env);
    const r = await create(env);
    for (let i = 1; i <= 7; i++) git(r.worktree.path, ['commit', '-q', '--allow-empty', '-m', `step ${i}`]);
    const e = (await thrown(
      destroyWorktree(env.deps, env.repoOf, { id: r.worktree.id, cwd: env.ws.root }, false),
    )) as RefusedError;
    const [lost] = (e.details as { reasons: Array<{ count: number; commits: Array<{ subject: string }> }> })
      .reasons;
    expect(lost!.count).toBe(7);
    expect(lost!.commits.map((c) => c.subject)).toEqual(['step 7', 'step 6', 'step 5', 'step 4', 'step 3']);
    expect(e.message).toContain('7 commit(s) on no other branch, tag or remote ref would be lost');
    expect(e.message).toContain('step 7');
    expect(existsSync(r.worktree.path)).toBe(true);
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

  it('applies the same rule: a stale worktree whose commits landed on a local branch is removed, one with lost commits kept', async () => {
    withRemote(env);
    const landed = await create(env);
    git(landed.worktree.path, ['commit', '-q', '--allow-empty', '-m', 'landed']);
    git(env.main, ['merge', '-q', '--no-ff', '-m', 'land agent/T1', 'agent/T1']);
    const open = await create(env, { taskId: 'T2', branch: 'agent/T2' });
    git(open.worktree.path, ['commit', '-q', '--allow-empty', '-m', 'not landed']);
    env.advance(31 * 60_000);
    const out = await gcWorktrees(env.deps, env.repoOf, { dryRun: false, force: false });
    expect(
      out.results.map((r) => [
        r.task_id,
        r.action,
        r.reasons.map((x) => [x.reason, x.commits?.[0]?.subject]),
      ]),
    ).toEqual([
      ['T1', 'removed', []],
      ['T2', 'skipped', [['unpushed_commits', 'not landed']]],
    ]);
    expect(existsSync(landed.worktree.path)).toBe(false);
    expect(existsSync(open.worktree.path)).toBe(true);
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
    keepTemp(outside);
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
