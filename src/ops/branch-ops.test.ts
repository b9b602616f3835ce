import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, git, makeGitRepo, removeTempDir } from '../../test/fixtures/index.js';
import { loggedEvents } from '../../test/fixtures/logged-events.js';
import { HubError } from '../infra/index.js';
import { agentRegistry } from './agent-ops.js';
import { branchAllocate, branchCleanup, branchList, branchRelease } from './branch-ops.js';
import { createContext } from './create-context.js';
import { invoke } from './invoke.js';
import type { AnyOperation } from './registry.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

function workspace(config = 'state:\n  backend: local\n') {
  const ws = buildWorkspace({
    projects: [
      {
        name: 'platform',
        repos: [
          { name: 'identity', files: { 'README.md': '# identity\n' } },
          { name: 'web', url: 'https://example.com/web.git' },
        ],
      },
    ],
  });
  temps.push(ws.root);
  writeFileSync(join(ws.root, 'hub.config.yaml'), config);
  const repo = ws.repoDirs['platform/identity']!;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever result the operation returned.
  const run = (op: AnyOperation, input: Record<string, unknown>): Promise<any> =>
    invoke(
      op,
      createContext({ cwd: ws.root, env: { HUB_CACHE_DIR: 'off' }, definition: ws.manifestPath }),
      input,
    );
  return { ...ws, repo, run };
}

const fail = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, 'expected a failure').toBeInstanceOf(HubError);
  return e as HubError;
};

describe('branch allocate', () => {
  const ws = workspace();
  const head = git(ws.repo, ['rev-parse', 'HEAD']);

  it('names the branch from the pattern, records it and creates it in the checkout at HEAD', async () => {
    const r = await ws.run(branchAllocate, {
      repository: 'platform/identity',
      agent_id: 'a1',
      task_id: 'T-1',
      description: 'Fix the Login bug!',
    });
    expect(r).toMatchObject({
      created: true,
      head: 'created',
      allocation: {
        name: 'agent/T-1-fix-the-login-bug',
        repository: 'platform/identity',
        agent_id: 'a1',
        task_id: 'T-1',
        status: 'active',
        base_ref: 'HEAD',
        base_sha: head,
      },
    });
    expect(git(ws.repo, ['rev-parse', 'refs/heads/agent/T-1-fix-the-login-bug'])).toBe(head);
    const stored = JSON.parse(readFileSync(join(ws.root, '.hub/branches/platform~identity.json'), 'utf8'));
    expect(stored.allocations).toHaveLength(1);
    const plain = await ws.run(branchAllocate, {
      repository: 'platform/identity',
      agent_id: 'a1',
      task_id: 'T-2',
    });
    expect(plain.allocation.name).toBe('agent/T-2');
  });

  it('branches from a stated base, recording what was asked and the commit', async () => {
    git(ws.repo, ['tag', 'v1']);
    writeFileSync(join(ws.repo, 'x.txt'), 'x\n');
    git(ws.repo, ['add', '.']);
    git(ws.repo, ['commit', '-q', '-m', 'x']);
    const r = await ws.run(branchAllocate, {
      repository: 'platform/identity',
      agent_id: 'a1',
      task_id: 'T-3',
      base: 'v1',
    });
    expect(r.allocation).toMatchObject({ base_ref: 'v1', base_sha: head });
    expect(git(ws.repo, ['rev-parse', 'refs/heads/agent/T-3'])).toBe(head);
  });

  it('refuses a taken name naming the holder, and gives the same agent and task its allocation back', async () => {
    const input = { repository: 'platform/identity', agent_id: 'a1', task_id: 'T-4', name: 'agent/shared' };
    const first = await ws.run(branchAllocate, input);
    const e = await fail(ws.run(branchAllocate, { ...input, agent_id: 'a2', task_id: 'T-5' }));
    expect(e.code).toBe('refused');
    expect(e.httpStatus).toBe(409);
    expect(e.details).toMatchObject({
      field: 'name',
      value: 'agent/shared',
      holder: { agent_id: 'a1', task_id: 'T-4', since: first.allocation.created_at },
    });
    const again = await ws.run(branchAllocate, input);
    expect(again).toMatchObject({ created: false, head: 'existing', allocation: first.allocation });
  });

  it('refuses a name held by another agent naming the holder, even after the holder committed on it', async () => {
    const input = { repository: 'platform/identity', agent_id: 'a1', task_id: 'T-20', name: 'agent/moved' };
    await ws.run(branchAllocate, input);
    git(ws.repo, ['checkout', '-q', 'agent/moved']);
    writeFileSync(join(ws.repo, 'moved.txt'), 'm\n');
    git(ws.repo, ['add', '.']);
    git(ws.repo, ['commit', '-q', '-m', 'moved']);
    git(ws.repo, ['checkout', '-q', '-']);
    const e = await fail(ws.run(branchAllocate, { ...input, agent_id: 'a2', task_id: 'T-21' }));
    expect(e.details).toMatchObject({
      rule: 'one_allocation_per_name',
      holder: { agent_id: 'a1', task_id: 'T-20' },
    });
    // Its own agent gets it back as it stands.
    expect((await ws.run(branchAllocate, input)).head).toBe('existing');
  });

  it('checks --name against the allowed prefixes and the ref rules', async () => {
    const base = { repository: 'platform/identity', agent_id: 'a1', task_id: 'T-6' };
    const prefix = await fail(ws.run(branchAllocate, { ...base, name: 'feature/x' }));
    expect(prefix.details).toMatchObject({ field: 'name', rule: 'coordination.allowed_branch_prefixes' });
    for (const name of ['-x', 'agent/../x', 'agent/a b', 'agent/x.lock', `agent/${'x'.repeat(10240)}`]) {
      const e = await fail(ws.run(branchAllocate, { ...base, name }));
      expect(e.code, name).toBe('validation');
      expect(e.details, name).toMatchObject({ field: 'name', rule: 'git check-ref-format --branch' });
    }
    // A task id is a folder name too, so a space is refused as a task id; one that passes that rule but makes a
    // bad ref (`..`) is refused as the name the pattern derived.
    const spaced = await fail(ws.run(branchAllocate, { ...base, task_id: 'a b' }));
    expect(spaced.details).toMatchObject({ field: 'task_id' });
    const badTask = await fail(ws.run(branchAllocate, { ...base, task_id: 'a..b' }));
    expect(badTask.details).toMatchObject({ field: 'name', derived_from: 'coordination.branch_pattern' });
    expect(git(ws.repo, ['branch', '--list', 'agent/a*'])).toBe('');
  });

  it('gives clear errors for unknown repositories, an uncloned one, and a base that does not exist', async () => {
    const base = { agent_id: 'a1', task_id: 'T-7' };
    const unknown = await fail(ws.run(branchAllocate, { ...base, repository: 'platform/identty' }));
    expect(unknown.code).toBe('not_found');
    expect(unknown.details).toMatchObject({ field: 'repository', suggestions: ['identity'] });
    const uncloned = await fail(ws.run(branchAllocate, { ...base, repository: 'platform/web' }));
    expect(uncloned.details).toMatchObject({ field: 'repository', rule: 'checked_out' });
    const noBase = await fail(
      ws.run(branchAllocate, { ...base, repository: 'platform/identity', base: 'nope' }),
    );
    expect(noBase.code).toBe('not_found');
    expect(noBase.details).toMatchObject({ field: 'base', value: 'nope' });
    const optionBase = await fail(
      ws.run(branchAllocate, { ...base, repository: 'platform/identity', base: '--all' }),
    );
    expect(optionBase.details).toMatchObject({ field: 'base' });
    const gitOnly = await fail(
      ws.run(branchAllocate, { ...base, repository: 'platform/identity', base_sha: 'a'.repeat(40) }),
    );
    expect(gitOnly.details).toMatchObject({ field: 'base_sha', rule: 'only_without_git' });
    // Nothing was recorded for any of them.
    const list = await ws.run(branchList, { status: 'all' });
    expect(list.branches.some((b: { task_id: string }) => b.task_id === 'T-7')).toBe(false);
  });

  it('records without git on an uncloned repository with --no-git', async () => {
    const r = await ws.run(branchAllocate, {
      repository: 'platform/web',
      agent_id: 'a1',
      task_id: 'T-8',
      git: false,
      base_sha: 'b'.repeat(40),
    });
    expect(r).toMatchObject({
      head: 'not_created',
      allocation: { base_ref: null, base_sha: 'b'.repeat(40) },
    });
  });

  it('reuses a git branch at the base, refuses one elsewhere unless --adopt', async () => {
    const now = git(ws.repo, ['rev-parse', 'HEAD']);
    git(ws.repo, ['branch', 'agent/at-base', now]);
    git(ws.repo, ['branch', 'agent/elsewhere', head]);
    const base = { repository: 'platform/identity', agent_id: 'a1', task_id: 'T-9' };
    expect((await ws.run(branchAllocate, { ...base, name: 'agent/at-base' })).head).toBe('existing');
    const e = await fail(ws.run(branchAllocate, { ...base, task_id: 'T-10', name: 'agent/elsewhere' }));
    expect(e.details).toMatchObject({ field: 'name', rule: 'git_branch_exists', head });
    const adopted = await ws.run(branchAllocate, {
      ...base,
      task_id: 'T-10',
      name: 'agent/elsewhere',
      adopt: true,
    });
    expect(adopted).toMatchObject({ head: 'adopted', allocation: { base_sha: head } });
  });

  it('releases the record again when git refuses the branch, so the name stays free', async () => {
    // agent/dir exists in git but is not allocated: git cannot make agent/dir/x beside it.
    git(ws.repo, ['branch', 'agent/dir']);
    const input = { repository: 'platform/identity', agent_id: 'a3', task_id: 'T-11', name: 'agent/dir/x' };
    const e = await fail(ws.run(branchAllocate, input));
    expect(e.details).toMatchObject({ field: 'name', rule: 'git_branch' });
    const all = await ws.run(branchList, { status: 'all', agent_id: 'a3' });
    expect(all.branches).toHaveLength(1);
    expect(all.branches[0]).toMatchObject({
      status: 'released',
      release_reason: expect.stringMatching(/^git_failed: /),
    });
    git(ws.repo, ['branch', '-D', 'agent/dir']);
    expect((await ws.run(branchAllocate, input)).head).toBe('created');
  });

  it('lists allocations with their agent liveness, and releases by name or id', async () => {
    const list = await ws.run(branchList, { repository: 'platform/identity', agent_id: 'a1' });
    expect(list.branches.length).toBeGreaterThan(3);
    expect(list.branches.every((b: { agent_live: boolean }) => b.agent_live)).toBe(true);
    const other = await fail(
      ws.run(branchRelease, { repository: 'platform/identity', agent_id: 'a2', name: 'agent/T-2' }),
    );
    expect(other.details).toMatchObject({ rule: 'holder_or_force' });
    const r = await ws.run(branchRelease, {
      repository: 'platform/identity',
      agent_id: 'a1',
      name: 'agent/T-2',
    });
    expect(r).toMatchObject({ released: true, allocation: { status: 'released' } });
    // The git branch stays (branch cleanup deletes released ones).
    expect(git(ws.repo, ['branch', '--list', 'agent/T-2'])).toContain('agent/T-2');
    const registry = await ws.run(agentRegistry, { agent_id: 'a1' });
    expect(registry.agents[0]).toMatchObject({ agent_id: 'a1', live: true });
    expect(registry.agents[0].holds.branches.map((b: { name: string }) => b.name)).not.toContain('agent/T-2');
  });

  it('records each lifecycle change as an acl event', async () => {
    const events = loggedEvents(join(ws.root, '.hub')) as Array<{
      source: string;
      kind: string;
      subject: string;
    }>;
    const kinds = new Set(events.map((e) => `${e.source}:${e.kind}`));
    expect([...kinds].sort()).toEqual(['acl:BranchAllocated', 'acl:BranchReleased']);
    expect(events.every((e) => e.subject === 'platform/identity' || e.subject === 'platform/web')).toBe(true);
  });
});

describe('branch cleanup', () => {
  it('deletes released branches only: not allocated again, not checked out, merged unless --force', async () => {
    const ws = workspace();
    const R = 'platform/identity';
    const alloc = (task: string) => ws.run(branchAllocate, { repository: R, agent_id: 'a1', task_id: task });
    const release = (name: string) => ws.run(branchRelease, { repository: R, agent_id: 'a1', name });
    for (const t of ['done', 'busy', 'again', 'work', 'active']) await alloc(t);
    for (const n of ['agent/done', 'agent/busy', 'agent/again', 'agent/work']) await release(n);
    await ws.run(branchAllocate, { repository: R, agent_id: 'a2', task_id: 'again', name: 'agent/again' });
    git(ws.repo, ['worktree', 'add', '-q', join(ws.root, 'wt-busy'), 'agent/busy']);
    // Unmerged work on a released branch.
    git(ws.repo, ['checkout', '-q', 'agent/work']);
    writeFileSync(join(ws.repo, 'w.txt'), 'w\n');
    git(ws.repo, ['add', '.']);
    git(ws.repo, ['commit', '-q', '-m', 'work']);
    git(ws.repo, ['checkout', '-q', '-']);
    git(ws.repo, ['branch', 'mine']);
    // A branch hub did not create: adopted, then released.
    git(ws.repo, ['branch', 'agent/found', 'HEAD~0']);
    await ws.run(branchAllocate, { repository: R, agent_id: 'a1', task_id: 'found', name: 'agent/found' });
    await release('agent/found');

    const dry = await ws.run(branchCleanup, { repository: R, dry_run: true });
    expect(dry.deleted.map((d: { name: string }) => d.name)).toEqual(['agent/done', 'agent/work']);
    expect(dry.skipped).toEqual([
      { name: 'agent/again', reason: 'allocated again' },
      { name: 'agent/busy', reason: 'checked out in a worktree' },
      { name: 'agent/found', reason: 'hub did not create it (found, adopted or recorded with --no-git)' },
    ]);
    expect(git(ws.repo, ['branch', '--list', 'agent/done'])).toContain('agent/done');

    const r = await ws.run(branchCleanup, { repository: R, agent_id: 'a1' });
    expect(r.deleted.map((d: { name: string }) => d.name)).toEqual(['agent/done']);
    expect(r.skipped.find((s: { name: string }) => s.name === 'agent/work').reason).toMatch(
      /not fully merged/,
    );
    const forced = await ws.run(branchCleanup, { repository: R, force: true });
    expect(forced.deleted.map((d: { name: string }) => d.name)).toEqual(['agent/work']);
    const left = git(ws.repo, ['branch', '--format=%(refname:short)']).split('\n').sort();
    expect(left).toEqual(['agent/active', 'agent/again', 'agent/busy', 'agent/found', 'main', 'mine'].sort());
    const events = loggedEvents(join(ws.root, '.hub'));
    expect(
      events
        .filter((e: { kind: string }) => e.kind === 'BranchDeleted')
        .map((e: { data: { name: string } }) => e.data.name),
    ).toEqual(['agent/done', 'agent/work']);
  });
});

describe('--repository . and self', () => {
  it('allocate in the git repository holding the manifest', async () => {
    const root = createTempDir('hub-branch-self-');
    temps.push(root);
    makeGitRepo(root, { 'README.md': '# meta\n' });
    writeFileSync(join(root, '.hub.yml'), 'workspace:\n  name: w\n  projects: []\n');
    writeFileSync(
      join(root, 'hub.config.yaml'),
      "state:\n  backend: local\ncoordination:\n  allowed_branch_prefixes: ['agent/', 'bot/']\n  branch_pattern: 'bot/{agent_id}/{task_id}'\n",
    );
    const ctx = () =>
      createContext({ cwd: root, env: { HUB_CACHE_DIR: 'off' }, definition: join(root, '.hub.yml') });
    const dot = (await invoke(branchAllocate, ctx(), { repository: '.', agent_id: 'a1', task_id: 't1' })) as {
      allocation: { name: string; repository: string };
    };
    expect(dot.allocation).toMatchObject({ name: 'bot/a1/t1', repository: 'self' });
    const self = (await invoke(branchAllocate, ctx(), {
      repository: 'self',
      agent_id: 'a1',
      task_id: 't2',
    })) as {
      allocation: { name: string };
    };
    expect(self.allocation.name).toBe('bot/a1/t2');
    expect(
      git(root, ['branch', '--list', 'bot/*'])
        .split('\n')
        .map((l) => l.trim()),
    ).toEqual(['bot/a1/t1', 'bot/a1/t2']);
  });
});
