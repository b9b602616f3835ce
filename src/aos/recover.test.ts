import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkspace, git, removeTempDir } from '../../test/fixtures/index.js';
import {
  acquireLease,
  createWorktree,
  declareClaim,
  listClaims,
  readAllocations,
  readLeases,
  readWorktreeRecords,
  recordAllocation,
  resolveRepository,
  touchAgent,
  type WorktreeDeps,
} from '../acl/index.js';
import { Catalog, checkoutsOf } from '../catalog/index.js';
import { readRecordedEvents } from '../coord/index.js';
import { RefusedError } from '../infra/index.js';
import { readManifestFile } from '../model/index.js';
import { listRuns, openRun } from '../runs/index.js';
import { createMemoryStore } from '../state/index.js';
import { aclSubsystem } from './acl-subsystem.js';
import { mergeSubsystem } from './merge-subsystem.js';
import { recoverAgents } from './recover.js';
import { runsRecoverer, runsSubsystem } from './runs-subsystem.js';
import { aosDoctor } from './status.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

async function setup() {
  const ws = buildWorkspace({
    projects: [
      { name: 'platform', repos: [{ name: 'identity', files: { 'a.txt': 'a\n', 'src/b.txt': 'b\n' } }] },
    ],
  });
  temps.push(ws.root);
  const main = ws.repoDirs['platform/identity']!;
  const catalog = new Catalog(readManifestFile(ws.manifestPath));
  const repoDeps = { catalog, checkouts: checkoutsOf(catalog), definitionRoot: ws.root };
  let now = new Date('2026-03-01T10:00:00Z');
  const deps: WorktreeDeps = {
    store: createMemoryStore(),
    retries: 1,
    now: () => now,
    host: 'host-a',
    env: {},
  };
  const repoOf = (id: string) => resolveRepository(repoDeps, id);
  const repository = await repoOf('platform/identity');
  const cfg = { layout: { workspaceRoot: ws.root, worktreesPath: '.worktrees/', allowedOutside: [] } };
  /** An agent with a branch, a lease on it, a claim and a worktree, as `task bind-acl` would leave it. */
  const work = async (agent: string, task: string) => {
    const name = `agent/${task}`;
    git(main, ['branch', name]);
    await recordAllocation(deps, {
      repository,
      agent_id: agent,
      task_id: task,
      name,
      base_ref: 'HEAD',
      base_sha: null,
    });
    await acquireLease(deps, { repository, agent_id: agent, task_id: task, branch: name, ttl: '2h' });
    await declareClaim(deps, {
      repository: 'platform/identity',
      agent_id: agent,
      patterns: [`${task}/**`],
      ttl: '2h',
    });
    return createWorktree(deps, cfg, { target: repository, agentId: agent, taskId: task, branch: name });
  };
  const events = async () => readRecordedEvents(deps.store);
  return {
    main,
    deps,
    repoOf,
    work,
    events,
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
  };
}

describe('aos recover', () => {
  it("releases a dead agent's lease, claim and branch, removes its clean worktree and keeps a dirty one", async () => {
    const e = await setup();
    const clean = await e.work('dead-1', 'T1');
    const dirty = await e.work('dead-1', 'T2');
    await e.work('alive', 'T3');
    writeFileSync(join(dirty.worktree.path, 'notes.txt'), 'unsaved work\n');
    e.advance(40 * 60_000);
    await touchAgent(e.deps, 'alive');
    for (const l of (await readLeases(e.deps)).filter((x) => x.agent_id === 'alive'))
      expect(l.status).not.toBe('released');

    const doctor = await aosDoctor([aclSubsystem(e.deps)], e.deps.now());
    expect(doctor.health).toBe('warning');
    expect(doctor.findings.map((f) => [f.code, f.subject])).toEqual(
      expect.arrayContaining([['dead_agent_holdings', 'dead-1']]),
    );
    expect(doctor.suggested_commands).toContain('hub aos recover --agent-id dead-1');

    const dry = await recoverAgents(e.deps, e.repoOf, { dryRun: true, force: false });
    expect(dry.agents.map((a) => a.agent_id)).toEqual(['dead-1']);
    expect(Object.fromEntries(dry.agents[0]!.worktrees.map((w) => [w.id, w.action]))).toEqual({
      [clean.worktree.id]: 'would_remove',
      [dirty.worktree.id]: 'kept',
    });
    expect(existsSync(clean.worktree.path)).toBe(true);
    expect((await readLeases(e.deps)).filter((l) => l.status === 'released')).toEqual([]);

    const done = await recoverAgents(e.deps, e.repoOf, { dryRun: false, force: false });
    const r = done.agents[0]!;
    // an agent's second claim in a repository extends its first: one claim with both patterns
    expect([r.leases.length, r.claims.length, r.branches.sort()]).toEqual([2, 1, ['agent/T1', 'agent/T2']]);
    expect(existsSync(clean.worktree.path)).toBe(false);
    expect(existsSync(join(dirty.worktree.path, 'notes.txt'))).toBe(true);
    expect(r.worktrees.find((w) => w.id === dirty.worktree.id)?.reasons.map((b) => b.reason)).toContain(
      'untracked_files',
    );
    const leases = await readLeases(e.deps);
    expect(leases.filter((l) => l.agent_id === 'dead-1').map((l) => [l.status, l.released_by])).toEqual([
      ['released', 'hub'],
      ['released', 'hub'],
    ]);
    expect((await listClaims(e.deps, { agent_id: 'dead-1', status: 'active' })).length).toBe(0);
    expect(
      (await readAllocations(e.deps)).filter((b) => b.agent_id === 'dead-1').map((b) => b.status),
    ).toEqual(['released', 'released']);
    // git branches stay: they hold the dead agent's commits
    expect(git(e.main, ['branch', '--list', 'agent/T1']).trim()).toContain('agent/T1');
    // the live agent keeps everything, and the dead one was not marked seen by its own recovery
    expect((await readWorktreeRecords(e.deps)).map((w) => w.agent_id).sort()).toEqual(['alive', 'dead-1']);
    const again = await recoverAgents(e.deps, e.repoOf, { dryRun: false, force: false });
    expect(again.agents.map((a) => [a.agent_id, a.leases.length, a.claims.length])).toEqual([
      ['dead-1', 0, 0],
    ]);
    const kinds = (await e.events()).map((x) => `${x.source}:${x.kind}`);
    expect(kinds).toEqual(
      expect.arrayContaining(['aos:AgentRecovered', 'acl:LeaseReleased', 'acl:ClaimReleased']),
    );
    const released = (await e.events()).filter((x) => x.kind === 'LeaseReleased');
    expect(released.every((x) => x.data.released_by === 'hub' && x.data.forced === true)).toBe(true);
  });

  it('refuses to recover a live agent unless forced', async () => {
    const e = await setup();
    await e.work('busy', 'T1');
    const err = await recoverAgents(e.deps, e.repoOf, {
      agentIds: ['busy'],
      dryRun: false,
      force: false,
    }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(RefusedError);
    expect((err as RefusedError).details).toMatchObject({ rule: 'agent_not_live', value: 'busy' });
    const forced = await recoverAgents(e.deps, e.repoOf, { agentIds: ['busy'], dryRun: false, force: true });
    expect(forced.agents[0]!.leases).toHaveLength(1);
  });

  it("abandons a dead agent's open runs, even when it held nothing else, and leaves the live agent's alone", async () => {
    const e = await setup();
    const dead = await openRun(e.deps, { actor: 'runner', repository: 'platform/identity' });
    e.advance(40 * 60_000);
    const alive = await openRun(e.deps, { actor: 'fresh' });
    const rooms = [runsRecoverer(e.deps)];
    const doctor = await aosDoctor([runsSubsystem(e.deps)], e.deps.now());
    expect(doctor.findings.map((f) => [f.code, f.subject])).toEqual([['orphan_run', dead.run.run_id]]);
    const done = await recoverAgents(e.deps, e.repoOf, { dryRun: false, force: false, recoverers: rooms });
    expect(done.agents.map((a) => [a.agent_id, a.other])).toEqual([
      ['runner', { runs: [{ run_id: dead.run.run_id, outcome: 'abandoned' }] }],
    ]);
    const open = await listRuns(e.deps, { open: true });
    expect(open.map((r) => r.run_id)).toEqual([alive.run.run_id]);
    const closed = (await listRuns(e.deps, { open: false }))[0]!;
    expect(closed).toMatchObject({ outcome: 'abandoned', closed_by: 'hub' });
  });
});

describe('aos doctor on the merge queue', () => {
  it('names stopped merges and long queues, with the command for each', async () => {
    const e = await setup();
    const at = e.deps.now().toISOString();
    const m = (merge_id: string, status: string) => ({
      merge_id,
      repository: 'platform/identity',
      source_branch: `agent/${merge_id}`,
      target_branch: 'main',
      status,
      created_at: at,
      updated_at: at,
    });
    await e.deps.store.write(
      'merges/platform~identity',
      { merges: [m('m1', 'queued'), m('m2', 'queued'), m('m3', 'running'), m('m4', 'conflict')] },
      '""',
    );
    const doctor = await aosDoctor([mergeSubsystem(e.deps)], e.deps.now());
    expect(doctor.findings.map((f) => [f.severity, f.code, f.subject, f.command])).toEqual([
      ['warning', 'merge_conflict', 'm4', 'hub merge status --merge-id m4'],
      ['info', 'merge_pressure', 'platform/identity', 'hub merge integrate --repository platform/identity'],
    ]);
  });
});

describe('aos doctor names every merge request that cannot proceed (issue 27)', () => {
  it('a blocked head, a stale integrator, a conflict, a failure: each with its cause and the command that frees it', async () => {
    const e = await setup();
    const at = e.deps.now().toISOString();
    const m = (merge_id: string, status: string, more: Record<string, unknown> = {}) => ({
      merge_id,
      repository: 'platform/identity',
      source_branch: `agent/${merge_id}`,
      target_branch: 'main',
      status,
      created_at: at,
      updated_at: at,
      ...more,
    });
    await e.deps.store.write(
      'merges/platform~identity',
      {
        merges: [
          m('q1', 'queued'),
          m('q2', 'queued'),
          m('r1', 'running', { integrator: 'host-a:99999' }),
          m('r2', 'running', { integrator: 'host-a:1' }),
          m('f1', 'failed', { error_message: 'target moved', retryable: true }),
          m('f2', 'failed', { error_message: 'source branch gone' }),
          m('c1', 'cancelled'),
        ],
      },
      '""',
    );
    const doctor = await aosDoctor(
      [
        mergeSubsystem(e.deps, {
          // q1's target is checked out; q2's is free.
          blockOf: async (r) =>
            r.merge_id === 'q1'
              ? {
                  merge_id: r.merge_id,
                  repository: r.repository,
                  source_branch: r.source_branch,
                  target_branch: r.target_branch,
                  reason: 'target_checked_out',
                  message: "its target 'main' is checked out in /w/main",
                  worktrees: ['/w/main'],
                  command: 'git -C /w/main switch --detach',
                  cancel_command: 'hub merge cancel --merge-id q1',
                }
              : undefined,
          integratorGone: (integrator) => integrator === 'host-a:99999',
        }),
      ],
      e.deps.now(),
    );
    const merge = doctor.findings.filter((f) => f.subsystem === 'merge' && f.severity === 'warning');
    expect(merge.map((f) => [f.code, f.subject, f.command])).toEqual([
      ['merge_blocked', 'q1', 'git -C /w/main switch --detach'],
      ['merge_failed', 'f1', 'hub merge retry --merge-id f1'],
      ['merge_failed', 'f2', 'hub merge cancel --merge-id f2'],
      ['merge_stale', 'r1', 'hub merge retry --merge-id r1'],
    ]);
    expect(merge[0]!.message).toContain("its target 'main' is checked out in /w/main");
    expect(merge[2]!.message).toContain('source branch gone');
    expect(merge[3]!.message).toContain('host-a:99999, a process of this machine that is gone');
    expect(doctor.health).toBe('warning');
  });
});
