// The landing train against real repositories: all land, one conflicts (nothing moves), a target moved by someone
// else mid-train (reported, never overwritten; those already moved put back), a target that cannot be put back,
// a checked-out target, failing validators and the dry run. Mid-train moves are made deterministic by the
// validators themselves (they run after every head was read) and by a git reference-transaction hook.
import { chmodSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  branchWith,
  checkoutSnapshot,
  createTempDir,
  git,
  headOfBranch,
  makeGitRepo,
  removeTempDir,
  showFile,
} from '../../test/fixtures/index.js';
import type { HubError } from '../infra/index.js';
import { type MergeConfig, mergeSettings } from '../merge/index.js';
import { landTrain, MAX_CAUSE_FILES, type TrainDeps, type TrainRow } from './index.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

interface Fleet {
  dir: string;
  tmpRoot: string;
  rows: TrainRow[];
  /** Each repository's `integration` head before the train. */
  before: string[];
  deps: (config?: Partial<MergeConfig>) => TrainDeps;
}

/** `n` repositories on `main`, each with an `integration` target and a `campaign/x` branch adding one file. */
function fleet(n: number): Fleet {
  const dir = createTempDir('hub-train-');
  temps.push(dir);
  const tmpRoot = join(dir, 'tmp');
  git(dir, ['init', '-q', tmpRoot]);
  const rows: TrainRow[] = [];
  const before: string[] = [];
  for (let i = 0; i < n; i++) {
    const root = makeGitRepo(join(dir, `r${i}`), { 'README.md': `# r${i}\n`, 'shared.txt': 'base\n' });
    git(root, ['branch', 'integration']);
    branchWith(root, 'campaign/x', 'main', { [`change-${i}.txt`]: `change ${i}\n` });
    rows.push({ repository: `p/r${i}`, root, branch: 'campaign/x', into: 'integration' });
    before.push(headOfBranch(root, 'integration')!);
  }
  const deps = (config: Partial<MergeConfig> = {}): TrainDeps => ({
    // biome-ignore lint/style/noProcessEnv: git and the validators must still find programs on the PATH of the test.
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    tmpRoot,
    settings: mergeSettings({ validators: [], regenerate: [], timeout_ms: 60_000, ...config }),
  });
  return { dir, tmpRoot, rows, before, deps };
}

const heads = (f: Fleet) => f.rows.map((r) => headOfBranch(r.root, 'integration'));

/** Every temporary worktree was removed: each repository lists only its main checkout, the temp folder is empty. */
function noTempLeft(f: Fleet) {
  for (const r of f.rows)
    expect(git(r.root, ['worktree', 'list', '--porcelain']).match(/^worktree /gm)).toHaveLength(1);
  expect(readdirSync(f.tmpRoot).filter((n) => n.startsWith('hub-merge-'))).toEqual([]);
}

/**
 * A validator that, while validating `when` (HUB_MERGE_REPOSITORY), moves `repo`'s `integration` to `sha`: someone
 * else's push landing mid-train, at a point fixed by the train's own order (every head is read before any merge).
 */
function mover(f: Fleet, when: string, repo: string, sha: string): Partial<MergeConfig> {
  const script = join(f.dir, 'move-target.mjs');
  writeFileSync(
    script,
    `import { execFileSync } from 'node:child_process';
const [when, repo, sha] = process.argv.slice(2);
if (process.env.HUB_MERGE_REPOSITORY === when)
  execFileSync('git', ['-C', repo, 'update-ref', 'refs/heads/integration', sha]);
`,
  );
  return { validators: [[process.execPath, script, when, repo, sha]] };
}

describe('landTrain', () => {
  it('lands every repository: each target moves by compare-and-swap to its merge, checkouts untouched', async () => {
    const f = fleet(3);
    const snapshots = f.rows.map((r) => checkoutSnapshot(r.root));
    const report = await landTrain(f.deps({ validators: [['git', 'diff', '--quiet']] }), {
      rows: f.rows,
    });
    expect(report).toMatchObject({
      dry_run: false,
      landed: true,
      moved: 3,
      stopped_by: [],
      not_restored: [],
    });
    expect(report.message).toBe('landed 3 repositories');
    report.rows.forEach((row, i) => {
      const r = f.rows[i]!;
      const now = headOfBranch(r.root, 'integration')!;
      expect(row).toMatchObject({
        repository: `p/r${i}`,
        branch: 'campaign/x',
        into: 'integration',
        branch_sha: headOfBranch(r.root, 'campaign/x'),
        old_sha: f.before[i],
        new_sha: now,
        target_sha: now,
        outcome: 'landed',
      });
      expect(row.cause).toBeUndefined();
      // The validator ran in the temporary worktree of the merge, and its run is reported.
      expect(row.validation).toMatchObject({
        ok: true,
        commands: [{ argv: ['git', 'diff', '--quiet'], exit_code: 0 }],
      });
      expect(git(r.root, ['rev-list', '--parents', '-n', '1', now]).split(' ').slice(1)).toEqual([
        f.before[i],
        headOfBranch(r.root, 'campaign/x'),
      ]);
      expect(showFile(r.root, now, `change-${i}.txt`)).toBe(`change ${i}`);
      expect(checkoutSnapshot(r.root)).toEqual(snapshots[i]);
    });
    noTempLeft(f);
  });

  it('a branch already in its target is up to date and does not stop the others', async () => {
    const f = fleet(2);
    git(f.rows[1]!.root, ['branch', '-f', 'integration', 'campaign/x']);
    const old1 = headOfBranch(f.rows[1]!.root, 'integration');
    const report = await landTrain(f.deps(), { rows: f.rows });
    expect(report).toMatchObject({ landed: true, moved: 1 });
    expect(report.rows.map((r) => r.outcome)).toEqual(['landed', 'up_to_date']);
    expect(report.rows[1]).toMatchObject({ old_sha: old1, new_sha: old1, target_sha: old1 });
    expect(report.message).toBe('landed 1 repository (1 already up to date)');
  });

  it('one repository conflicting: nothing moves, the report names the conflict and its files', async () => {
    const f = fleet(3);
    const r1 = f.rows[1]!;
    branchWith(r1.root, 'integration', 'integration', { 'shared.txt': 'theirs\n' });
    branchWith(r1.root, 'campaign/x', 'campaign/x', { 'shared.txt': 'ours\n' });
    const before = heads(f);
    const report = await landTrain(f.deps(), { rows: f.rows });
    expect(report).toMatchObject({ landed: false, moved: 0, stopped_by: ['p/r1'], not_restored: [] });
    expect(report.rows.map((r) => r.outcome)).toEqual(['held', 'conflict', 'held']);
    expect(report.rows[1]!.cause).toMatchObject({ code: 'conflict', files: ['shared.txt'] });
    expect(report.rows[0]!.new_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(report.rows[0]!.target_sha).toBe(before[0]);
    expect(heads(f)).toEqual(before);
    expect(report.message).toBe('nothing moved: stopped by p/r1 (conflict)');
    noTempLeft(f);
  });

  it('a failing validator stops the train: nothing moves, the command and its output are reported', async () => {
    const f = fleet(2);
    const script = join(f.dir, 'fail-on-r1.mjs');
    writeFileSync(
      script,
      "if (process.env.HUB_MERGE_REPOSITORY === 'p/r1') { console.error('tests failed in r1'); process.exit(3); }\n",
    );
    const report = await landTrain(f.deps({ validators: [[process.execPath, script]] }), { rows: f.rows });
    expect(report.rows.map((r) => r.outcome)).toEqual(['held', 'validation_failed']);
    expect(report.rows[1]!.cause).toMatchObject({ code: 'validation_failed' });
    expect(report.rows[1]!.cause!.message).toContain('exited 3');
    expect(report.rows[1]!.validation!.commands[0]!.stderr).toContain('tests failed in r1');
    expect(heads(f)).toEqual(f.before);
    noTempLeft(f);
  });

  it('a target someone else moved mid-train is reported, not overwritten, and nothing else moves', async () => {
    const f = fleet(3);
    const r0 = f.rows[0]!;
    const theirs = branchWith(r0.root, 'someone', 'integration', { 'theirs.txt': 'theirs\n' });
    // While the last repository is validated, r0's target moves: r0 is the first the train tries to move.
    const report = await landTrain(f.deps(mover(f, 'p/r2', r0.root, theirs)), { rows: f.rows });
    expect(report).toMatchObject({ landed: false, moved: 0, stopped_by: ['p/r0'], not_restored: [] });
    expect(report.rows.map((r) => r.outcome)).toEqual(['moved_elsewhere', 'held', 'held']);
    expect(report.rows[0]).toMatchObject({ old_sha: f.before[0], target_sha: theirs });
    expect(report.rows[0]!.cause).toMatchObject({ code: 'target_moved' });
    expect(report.rows[0]!.cause!.message).toContain('not overwritten');
    expect(heads(f)).toEqual([theirs, f.before[1], f.before[2]]);
    noTempLeft(f);
  });

  it('targets already moved are put back by compare-and-swap when a later one moved meanwhile', async () => {
    const f = fleet(3);
    const r2 = f.rows[2]!;
    const theirs = branchWith(r2.root, 'someone', 'integration', { 'theirs.txt': 'theirs\n' });
    const report = await landTrain(f.deps(mover(f, 'p/r1', r2.root, theirs)), { rows: f.rows });
    expect(report.rows.map((r) => r.outcome)).toEqual(['rolled_back', 'rolled_back', 'moved_elsewhere']);
    expect(report).toMatchObject({ landed: false, moved: 0, stopped_by: ['p/r2'], not_restored: [] });
    expect(heads(f)).toEqual([f.before[0], f.before[1], theirs]);
    for (const i of [0, 1]) {
      expect(report.rows[i]!.target_sha).toBe(f.before[i]);
      // The reflog tells the story: moved by the train, then put back.
      const log = git(f.rows[i]!.root, ['reflog', 'show', '--format=%gs', 'refs/heads/integration']);
      expect(log.split('\n').slice(0, 2)).toEqual(['hub merge train: put back', 'hub merge train']);
    }
  });

  it('a target moved again after the train moved it is left as set and reported (rollback_blocked)', async () => {
    const f = fleet(3);
    const [r0, , r2] = f.rows as [TrainRow, TrainRow, TrainRow];
    const theirs = branchWith(r0.root, 'someone', 'integration', { 'theirs.txt': 'theirs\n' });
    // r2's ref update is refused by its reference-transaction hook, which first moves r0's target (already moved
    // by the train): r0 cannot be put back without overwriting that change.
    const hook = join(r2.root, '.git', 'hooks', 'reference-transaction');
    writeFileSync(
      hook,
      `#!/bin/sh\nif [ "$1" = prepared ]; then git -C '${r0.root}' update-ref refs/heads/integration ${theirs}; exit 1; fi\nexit 0\n`,
    );
    chmodSync(hook, 0o755);
    const report = await landTrain(f.deps(), { rows: f.rows });
    expect(report.rows.map((r) => r.outcome)).toEqual(['rollback_blocked', 'rolled_back', 'failed']);
    expect(report.rows[2]!.cause).toMatchObject({ code: 'ref_update_failed' });
    expect(report.rows[0]!.cause).toMatchObject({ code: 'moved_after_landing' });
    expect(report.rows[0]).toMatchObject({ old_sha: f.before[0], target_sha: theirs });
    expect(report).toMatchObject({ landed: false, moved: 0, stopped_by: ['p/r2'], not_restored: ['p/r0'] });
    expect(report.message).toContain('p/r0 could not be put back');
    expect(heads(f)).toEqual([theirs, f.before[1], f.before[2]]);
  });

  it('a target checked out in a worktree (clean or not) is never moved: the train stops, naming the checkout', async () => {
    const f = fleet(2);
    const rows = f.rows.map((r, i) => (i === 1 ? { ...r, into: 'main' } : r));
    const mainBefore = headOfBranch(rows[1]!.root, 'main');
    const report = await landTrain(f.deps(), { rows });
    expect(report.rows.map((r) => r.outcome)).toEqual(['held', 'failed']);
    expect(report.rows[1]!.cause).toMatchObject({ code: 'target_checked_out', worktrees: [rows[1]!.root] });
    expect(report.rows[1]!.cause!.message).toContain('git switch --detach');
    expect(headOfBranch(rows[1]!.root, 'main')).toBe(mainBefore);
    expect(heads(f)).toEqual(f.before);
  });

  it('lists at most MAX_CAUSE_FILES conflicting files, and says how many there are', async () => {
    const f = fleet(1);
    const r0 = f.rows[0]!;
    const many = (side: string) =>
      Object.fromEntries(
        Array.from({ length: 130 }, (_, i) => [`c${String(i).padStart(3, '0')}.txt`, `${side}\n`]),
      );
    branchWith(r0.root, 'integration', 'integration', many('theirs'));
    branchWith(r0.root, 'campaign/x', 'campaign/x', many('ours'));
    for (const dry_run of [true, false]) {
      const report = await landTrain(f.deps(), { rows: f.rows, dry_run });
      const cause = report.rows[0]!.cause!;
      expect(cause.code).toBe('conflict');
      expect(cause.files).toHaveLength(MAX_CAUSE_FILES);
      expect(cause.files![0]).toBe('c000.txt');
      expect(cause.message).toMatch(/^130 files would conflict|130 files/);
      expect(cause.message).toContain(`the first ${MAX_CAUSE_FILES} listed`);
    }
  });

  it('dry_run shows the plan, predicts conflicts and changes nothing', async () => {
    const f = fleet(4);
    branchWith(f.rows[1]!.root, 'integration', 'integration', { 'shared.txt': 'theirs\n' });
    branchWith(f.rows[1]!.root, 'campaign/x', 'campaign/x', { 'shared.txt': 'ours\n' });
    git(f.rows[2]!.root, ['branch', '-f', 'integration', 'campaign/x']);
    git(f.rows[3]!.root, ['branch', '-D', 'campaign/x']);
    const before = heads(f);
    const snapshot = checkoutSnapshot(f.rows[0]!.root);
    const report = await landTrain(f.deps(), { rows: f.rows, dry_run: true });
    expect(report).toMatchObject({ dry_run: true, landed: false, moved: 0, stopped_by: ['p/r1', 'p/r3'] });
    expect(report.rows.map((r) => r.outcome)).toEqual(['would_merge', 'conflict', 'up_to_date', 'blocked']);
    expect(report.rows[1]!.cause).toMatchObject({ code: 'conflict', files: ['shared.txt'] });
    expect(report.rows[3]!.cause).toMatchObject({ code: 'branch_missing' });
    expect(report.message).toBe('would stop at p/r1 (conflict), p/r3 (branch_missing); nothing was changed');
    expect(heads(f)).toEqual(before);
    expect(checkoutSnapshot(f.rows[0]!.root)).toEqual(snapshot);
    noTempLeft(f);
    const clean = await landTrain(f.deps(), { rows: [f.rows[0]!], dry_run: true });
    expect(clean.message).toBe('would land 1 repository; nothing was changed');
  });

  it('refuses rows that cannot mean one thing', async () => {
    const f = fleet(1);
    const r = f.rows[0]!;
    const refused = async (rows: TrainRow[]) =>
      landTrain(f.deps(), { rows }).then(
        () => undefined,
        (e: unknown) => e as HubError,
      );
    expect((await refused([]))?.details).toMatchObject({ field: 'rows' });
    expect((await refused([r, { ...r, branch: 'other' }]))?.details).toMatchObject({
      field: 'rows[1]',
      rule: 'one row per target',
    });
    expect((await refused([{ ...r, branch: '-x' }]))?.details).toMatchObject({ field: 'rows[0].branch' });
    expect((await refused([{ ...r, into: r.branch }]))?.details).toMatchObject({ field: 'rows[0].branch' });
  });
});
