// Issue 27: the coordination loop as an agent's script drives it, through the built CLI on real git: claim,
// worktree, commit, enqueue, integrate, destroy. A script that trusts hub's exit codes and defaults must neither
// get stuck nor be fooled: the spec's command lines work as shown, a check that finds a problem exits 1, a queue
// with a blocked head still lands what is behind it, and a branch hub merged locally is not "unpushed work".
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

const R = 'platform/identity';
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

/** A fresh demo workspace whose identity repository has an `origin` holding main (so "pushed" means something). */
function demo() {
  const dir = createTempDir('hub-loop-');
  temps.push(dir);
  const d = createDemo(join(dir, 'demo'));
  const repo = join(d.root, R);
  const bare = join(dir, 'origin.git');
  git(dir, ['init', '-q', '--bare', bare]);
  git(repo, ['remote', 'add', 'origin', bare]);
  git(repo, ['push', '-q', 'origin', 'main']);
  git(repo, ['branch', 'integration']);
  const run = (args: string[], json = true) =>
    runHub(['-c', d.manifestPath, ...args, ...(json ? ['--json'] : [])]);
  /** Runs a command that must exit with `code`, and gives its JSON. */
  const hub = (code: number, ...args: string[]) => {
    const r = run(args);
    expect(r.code, `hub ${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(code);
    return r.json();
  };
  return { ...d, repo, run, hub };
}

/** Commits a file in a checkout (a worktree, as an agent would). */
function commit(cwd: string, file: string, message: string): string {
  writeFileSync(join(cwd, file), `${message}\n`);
  git(cwd, ['add', '--', file]);
  git(cwd, ['commit', '-q', '-m', message]);
  return git(cwd, ['rev-parse', 'HEAD']);
}

describe('worktree create as the spec shows it (no base)', () => {
  it('starts a missing branch at the checkout HEAD, allocates it to the agent and task, and says so', () => {
    const d = demo();
    const head = git(d.repo, ['rev-parse', 'HEAD']);
    const r = d.hub(
      0,
      'worktree',
      'create',
      '--repository',
      R,
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--branch',
      'agent/T1',
    );
    expect(r).toMatchObject({
      created_branch: true,
      base_ref: 'HEAD',
      base_sha: head,
      worktree: { branch: 'agent/T1', agent_id: 'a1', task_id: 'T1' },
      allocation: {
        name: 'agent/T1',
        agent_id: 'a1',
        task_id: 'T1',
        status: 'active',
        base_ref: 'HEAD',
        base_sha: head,
        created_head: true,
      },
    });
    expect(git(r.worktree.path, ['rev-parse', 'HEAD'])).toBe(head);
    const branches = d.hub(0, 'branch', 'list', '--repository', R).branches;
    expect(branches.map((b: { name: string; agent_id: string }) => [b.name, b.agent_id])).toEqual([
      ['agent/T1', 'a1'],
    ]);
    const kinds = d.hub(0, 'context', 'events').events.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['BranchAllocated', 'WorktreeCreated']));

    // The human line says where the branch started and that it is allocated.
    const base = git(d.repo, ['rev-list', '--max-parents=0', 'HEAD']);
    const human = d.run(
      [
        'worktree',
        'create',
        '--repository',
        R,
        '--agent-id',
        'a1',
        '--task-id',
        'T2',
        '--branch',
        'agent/T2',
        '--base',
        base,
      ],
      false,
    );
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(
      `started branch agent/T2 at ${base} (${base.slice(0, 12)}); allocated br-`,
    );
    expect(human.stdout).toContain('to a1 for task T2');

    // An existing branch is checked out as it stands, as before, and base is refused with it.
    git(d.repo, ['branch', 'agent/T3']);
    expect(
      d.hub(
        0,
        'worktree',
        'create',
        '--repository',
        R,
        '--agent-id',
        'a1',
        '--task-id',
        'T3',
        '--branch',
        'agent/T3',
      ),
    ).toMatchObject({ created_branch: false, worktree: { branch: 'agent/T3' } });
  });

  it('keeps the branch rules: allowed prefixes, one holder per name; a failed worktree gives the branch back', () => {
    const d = demo();
    const outside = d.hub(
      1,
      'worktree',
      'create',
      '--repository',
      R,
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--branch',
      'feature/x',
    );
    expect(outside.error).toMatchObject({
      code: 'validation',
      details: { field: 'branch', rule: 'coordination.allowed_branch_prefixes' },
    });
    d.hub(
      0,
      'branch',
      'allocate',
      '--repository',
      R,
      '--agent-id',
      'a2',
      '--task-id',
      'T9',
      '--name',
      'agent/held',
      '--no-git',
    );
    const held = d.hub(
      1,
      'worktree',
      'create',
      '--repository',
      R,
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--branch',
      'agent/held',
    );
    expect(held.error).toMatchObject({
      code: 'refused',
      details: { holder: { agent_id: 'a2', task_id: 'T9' } },
    });
    for (const b of ['feature/x', 'agent/held']) expect(git(d.repo, ['branch', '--list', b]), b).toBe('');

    d.hub(
      0,
      'worktree',
      'create',
      '--repository',
      R,
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--branch',
      'agent/T1',
    );
    const second = d.hub(
      1,
      'worktree',
      'create',
      '--repository',
      R,
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--branch',
      'agent/other',
    );
    // The task's worktree folder is taken: refused after the branch was started, which is then given back.
    expect(second.error).toMatchObject({ code: 'refused', details: { rule: 'path_free' } });
    expect(git(d.repo, ['branch', '--list', 'agent/other'])).toBe('');
    const active = d
      .hub(0, 'branch', 'list', '--repository', R)
      .branches.map((b: { name: string }) => b.name);
    expect(active).toEqual(['agent/held', 'agent/T1']);
  });
});

describe('checks a script can trust', () => {
  it('claim check exits 1 when it finds conflicts, still printing the JSON, and 0 when it finds none', () => {
    const d = demo();
    d.hub(0, 'claim', 'declare', '--repository', R, '--agent-id', 'a1', '--pattern', 'docs/**');
    const found = d.hub(1, 'claim', 'check', '--repository', R, '--pattern', 'docs/a.md', '--agent-id', 'a2');
    expect(found).toMatchObject({ ok: false, conflicts: [{ agent_id: 'a1', witness: 'docs/a.md' }] });
    const human = d.run(
      ['claim', 'check', '--repository', R, '--pattern', 'docs/a.md', '--agent-id', 'a2'],
      false,
    );
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('1 conflict(s) in platform/identity');
    expect(
      d.hub(0, 'claim', 'check', '--repository', R, '--pattern', 'src/**', '--agent-id', 'a2'),
    ).toMatchObject({
      ok: true,
      conflicts: [],
    });
  });

  it('merge rollup starts a new integration branch at HEAD when no base is given', () => {
    const d = demo();
    d.hub(
      0,
      'worktree',
      'create',
      '--repository',
      R,
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--branch',
      'agent/T1',
    );
    const wt = join(d.root, '.worktrees/a1/platform~identity/T1');
    commit(wt, 'one.txt', 'one');
    const head = git(d.repo, ['rev-parse', 'HEAD']);
    const r = d.run(
      ['merge', 'rollup', '--repository', R, '--into', 'agent/rollup-1', '--branch', 'agent/T1'],
      false,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`created agent/rollup-1 in ${R} from HEAD (${head.slice(0, 12)})`);
    expect(git(d.repo, ['show', 'agent/rollup-1:one.txt'])).toBe('one');
  });
});

describe('the merge queue never wedges', () => {
  it('lands the request behind a blocked head; doctor names the blocked one and its fix; cancel withdraws it', () => {
    const d = demo();
    git(d.repo, ['branch', 'agent/q1']);
    git(d.repo, ['branch', 'agent/q2']);
    for (const b of ['agent/q1', 'agent/q2']) {
      git(d.repo, ['checkout', '-q', b]);
      commit(d.repo, `${b.slice(6)}.txt`, b);
    }
    git(d.repo, ['checkout', '-q', 'main']);
    const free = `git -C ${d.repo} switch --detach`;

    // main is checked out in the main checkout: accepted, with a warning that says what will happen and the fix.
    const q1 = d.hub(0, 'merge', 'enqueue', '--repository', R, '--branch', 'agent/q1', '--into', 'main');
    expect(q1.warnings).toEqual([
      {
        code: 'target_checked_out',
        message: expect.stringContaining('integrate passes over it'),
        worktrees: [d.repo],
        command: free,
        cancel_command: `hub merge cancel --merge-id ${q1.merge.merge_id}`,
      },
    ]);
    const again = d.run(
      ['merge', 'enqueue', '--repository', R, '--branch', 'agent/q1', '--into', 'main'],
      false,
    );
    expect(again.stdout).toContain(`warning: into: 'main' is checked out in ${d.repo}`);
    const q2 = d.hub(
      0,
      'merge',
      'enqueue',
      '--repository',
      R,
      '--branch',
      'agent/q2',
      '--into',
      'integration',
    );
    expect(q2.warnings).toEqual([]);

    const doctor = d.hub(1, 'aos', 'doctor');
    expect(doctor.health).toBe('warning');
    expect(doctor.findings).toContainEqual(
      expect.objectContaining({ code: 'merge_blocked', subject: q1.merge.merge_id, command: free }),
    );

    // No id: the first request that can proceed lands; the head is passed over, with why and the fix.
    const landed = d.hub(0, 'merge', 'integrate', '--repository', R);
    expect(landed.merge).toMatchObject({ merge_id: q2.merge.merge_id, status: 'succeeded' });
    expect(landed.passed_over).toMatchObject([
      { merge_id: q1.merge.merge_id, reason: 'target_checked_out', worktrees: [d.repo], command: free },
    ]);
    const human = d.run(['merge', 'integrate', '--repository', R], false);
    expect(human.code).toBe(1);
    expect(human.stderr).toContain(`${q1.merge.merge_id}: its target 'main' is checked out in ${d.repo}`);
    const blocked = d.hub(1, 'merge', 'integrate', '--repository', R);
    expect(blocked.error).toMatchObject({
      code: 'refused',
      details: { rule: 'not_checked_out', passed_over: [{ merge_id: q1.merge.merge_id, command: free }] },
    });

    const cancelled = d.hub(
      0,
      'merge',
      'cancel',
      '--merge-id',
      q1.merge.merge_id,
      '--agent-id',
      'a1',
      '--reason',
      "main is the person's",
    );
    expect(cancelled.merge).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'a1',
      cancelled_from: 'queued',
    });
    expect(d.hub(1, 'merge', 'cancel', '--merge-id', q1.merge.merge_id).error.message).toContain(
      'cancelled already by a1',
    );
    expect(d.hub(1, 'merge', 'cancel', '--merge-id', q2.merge.merge_id).error.message).toContain(
      'has landed',
    );
    const kept = d
      .hub(0, 'merge', 'status', '--repository', R)
      .merges.map((m: { status: string }) => m.status);
    expect(kept).toEqual(['cancelled', 'succeeded']);
    expect(d.hub(0, 'aos', 'doctor').health).toBe('ok');
    expect(d.hub(0, 'context', 'events').events.map((e: { kind: string }) => e.kind)).toContain(
      'MergeCancelled',
    );
  });
});

describe('worktree destroy after hub merged the branch locally', () => {
  it('removes the worktree without --force, and keeps (naming the commits) one whose work would be lost', () => {
    const d = demo();
    d.hub(
      0,
      'claim',
      'declare',
      '--repository',
      R,
      '--agent-id',
      'a1',
      '--pattern',
      'docs/**',
      '--task-id',
      'T1',
    );
    const made = d.hub(
      0,
      'worktree',
      'create',
      '--repository',
      R,
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--branch',
      'agent/T1',
    );
    const wt = made.worktree.path as string;
    commit(wt, 'docs-note.txt', 'docs: a note');
    const q = d.hub(
      0,
      'merge',
      'enqueue',
      '--repository',
      R,
      '--branch',
      'agent/T1',
      '--into',
      'integration',
      '--agent-id',
      'a1',
    );
    expect(d.hub(0, 'merge', 'integrate', '--repository', R).merge).toMatchObject({
      merge_id: q.merge.merge_id,
      status: 'succeeded',
    });
    // Merged into the local integration branch, pushed nowhere: nothing would be lost.
    expect(d.hub(0, 'worktree', 'destroy', '--agent-id', 'a1', '--task-id', 'T1')).toMatchObject({
      action: 'removed',
      forced: false,
      reasons: [],
    });
    expect(existsSync(wt)).toBe(false);

    const open = d.hub(
      0,
      'worktree',
      'create',
      '--repository',
      R,
      '--agent-id',
      'a1',
      '--task-id',
      'T2',
      '--branch',
      'agent/T2',
    );
    const sha = commit(open.worktree.path, 'half.txt', 'wip: half done');
    const kept = d.hub(1, 'worktree', 'destroy', '--agent-id', 'a1', '--task-id', 'T2');
    expect(kept.error).toMatchObject({
      code: 'refused',
      details: {
        rule: 'clean_worktree',
        reasons: [{ reason: 'unpushed_commits', count: 1, commits: [{ sha, subject: 'wip: half done' }] }],
      },
    });
    expect(kept.error.message).toContain('1 commit(s) on no other branch, tag or remote ref would be lost');
    expect(kept.error.message).toContain('wip: half done');
    expect(existsSync(open.worktree.path)).toBe(true);
  });
});
