import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  branchWith,
  checkoutSnapshot,
  createTempDir,
  git,
  headOfBranch,
  showFile,
} from '../../test/fixtures/index.js';
import { integrateMerge } from './integrate.js';
import { enqueue, events, fail, noTempLeft, removeTemps, setup, temps } from './merge-test-kit.js';
import { listMerges, transitionMerge } from './queue.js';
import { retryMerge } from './requests.js';
import { mergeSettings } from './settings.js';

afterAll(removeTemps);

describe('merge integrate', () => {
  it('merges in a temporary worktree, moves only the target ref, and leaves the checkout byte-identical', async () => {
    const s = setup();
    const featureSha = branchWith(s.root, 'agent/feature', 'main', { 'feature.txt': 'feature\n' });
    // A person's uncommitted work in the main checkout: it must survive untouched, index and all.
    git(s.root, ['config', 'core.autocrlf', 'false']);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(s.root, 'shared.txt'), 'edited, not committed\n');
    writeFileSync(join(s.root, 'untracked.txt'), 'untracked\n');
    const before = checkoutSnapshot(s.root);
    const mainBefore = headOfBranch(s.root, 'main');
    const integrationBefore = headOfBranch(s.root, 'integration');

    const m = await enqueue(s, 'agent/feature', 'integration', 'a1');
    expect(m).toMatchObject({ status: 'queued', source_sha: featureSha, target_sha: integrationBefore });
    const done = await integrateMerge(s.deps, s.target, { merge_id: m.merge_id });

    expect(done).toMatchObject({ status: 'succeeded', base_sha: integrationBefore, attempts: 1 });
    const merged = headOfBranch(s.root, 'integration')!;
    expect(done.commit_sha).toBe(merged);
    expect(git(s.root, ['rev-list', '--parents', '-n', '1', merged]).split(' ').slice(1)).toEqual([
      integrationBefore,
      featureSha,
    ]);
    expect(showFile(s.root, merged, 'feature.txt')).toBe('feature');
    expect(headOfBranch(s.root, 'main')).toBe(mainBefore);
    expect(headOfBranch(s.root, 'agent/feature')).toBe(featureSha);
    expect(checkoutSnapshot(s.root)).toEqual(before);
    noTempLeft(s);
    expect((await events(s.store)).map((e) => e.kind)).toEqual([
      'MergeEnqueued',
      'MergeStarted',
      'MergeSucceeded',
    ]);
    expect((await events(s.store))[2]!.data).toMatchObject({
      merge_id: m.merge_id,
      repository: 'p/r',
      source_branch: 'agent/feature',
      target_branch: 'integration',
      status: 'succeeded',
      agent_id: 'a1',
      commit_sha: merged,
    });
  });

  it('refuses while the target is checked out in any worktree, naming it, and leaves the request queued', async () => {
    const s = setup();
    branchWith(s.root, 'agent/f', 'main', { 'f.txt': 'f\n' });
    const onMain = await enqueue(s, 'agent/f', 'main');
    const e = await fail(integrateMerge(s.deps, s.target, { merge_id: onMain.merge_id }));
    expect(e.code).toBe('refused');
    expect(e.message).toContain(s.root);
    expect(e.details).toMatchObject({ rule: 'not_checked_out', worktrees: [s.root], field: 'into' });

    const other = join(s.dir, 'other-checkout');
    git(s.root, ['worktree', 'add', '-q', other, 'integration']);
    const onIntegration = await enqueue(s, 'agent/f', 'integration');
    const e2 = await fail(integrateMerge(s.deps, s.target, { merge_id: onIntegration.merge_id }));
    expect(e2.details).toMatchObject({ worktrees: [other] });
    expect(e2.message).toContain(other);
    const list = await listMerges(s.deps, { key: 'p~r' });
    expect(list.merges.map((m) => m.status)).toEqual(['queued', 'queued']);
  });

  it('records a conflict with its sorted files and the hub commands that take it; nothing moves', async () => {
    const s = setup();
    branchWith(s.root, 'integration', 'integration', { 'shared.txt': 'integration\n', 'b.txt': 'x\n' });
    branchWith(s.root, 'agent/c', 'main', { 'shared.txt': 'source\n', 'b.txt': 'y\n' });
    const before = headOfBranch(s.root, 'integration');
    const m = await enqueue(s, 'agent/c', 'integration', 'a7');
    const done = await integrateMerge(s.deps, s.target, { merge_id: m.merge_id });
    expect(done.status).toBe('conflict');
    expect(done.conflict?.files).toEqual(['b.txt', 'shared.txt']);
    expect(done.conflict?.acl_commands).toEqual([
      `hub branch allocate --repository p/r --agent-id a7 --task-id resolve-${m.merge_id} --name agent/resolve-${m.merge_id} --base agent/c`,
      `hub lease acquire --repository p/r --agent-id a7 --task-id resolve-${m.merge_id} --branch agent/resolve-${m.merge_id}`,
      `hub worktree create --repository p/r --agent-id a7 --task-id resolve-${m.merge_id} --branch agent/resolve-${m.merge_id}`,
      `hub claim declare --repository p/r --agent-id a7 --task-id resolve-${m.merge_id} --pattern b.txt --pattern shared.txt`,
    ]);
    expect(headOfBranch(s.root, 'integration')).toBe(before);
    noTempLeft(s);
    const kinds = (await events(s.store)).map((e) => e.kind);
    expect(kinds.at(-1)).toBe('ConflictDetected');
    expect((await events(s.store)).at(-1)!.data).toMatchObject({ files: ['b.txt', 'shared.txt'] });
  });

  it('regenerates when every conflicted path matches a rule, running the real command once', async () => {
    const write =
      "require('fs').writeFileSync('gen/out.txt', 'regenerated from ' + require('fs').readFileSync('shared.txt', 'utf8'))";
    const s = setup({ regenerate: [{ pattern: 'gen/**', command: ['node', '-e', write] }] });
    branchWith(s.root, 'integration', 'integration', { 'gen/out.txt': 'integration gen\n' });
    branchWith(s.root, 'agent/g', 'main', { 'gen/out.txt': 'source gen\n', 'shared.txt': 'from source\n' });
    const m = await enqueue(s, 'agent/g');
    const done = await integrateMerge(s.deps, s.target, { merge_id: m.merge_id });
    expect(done.status).toBe('succeeded');
    expect(done.regenerated).toMatchObject({ files: ['gen/out.txt'], side: 'ours' });
    expect(done.regenerated?.commands).toHaveLength(1);
    expect(showFile(s.root, done.commit_sha!, 'gen/out.txt')).toBe('regenerated from from source');
    expect(git(s.root, ['rev-list', '--parents', '-n', '1', done.commit_sha!]).split(' ')).toHaveLength(3);
    expect((await events(s.store)).map((e) => e.kind).slice(-2)).toEqual([
      'MergeRegenerated',
      'MergeSucceeded',
    ]);
    noTempLeft(s);
  });

  it('does not regenerate when one conflicted path matches no rule (the command never runs)', async () => {
    const marker = join(createTempDir('hub-marker-'), 'ran');
    temps.push(marker);
    const s = setup({
      regenerate: [
        {
          patterns: ['gen/**'],
          command: ['node', '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
        },
      ],
    });
    branchWith(s.root, 'integration', 'integration', { 'gen/out.txt': 'i\n', 'shared.txt': 'i\n' });
    branchWith(s.root, 'agent/h', 'main', { 'gen/out.txt': 's\n', 'shared.txt': 's\n' });
    const m = await enqueue(s, 'agent/h');
    const done = await integrateMerge(s.deps, s.target, { merge_id: m.merge_id });
    expect(done.status).toBe('conflict');
    expect(done.conflict?.files).toEqual(['gen/out.txt', 'shared.txt']);
    expect(done.conflict?.message).toContain('not every one matches a merge.regenerate rule');
    expect(done.regenerated).toBeUndefined();
    const { existsSync } = await import('node:fs');
    expect(existsSync(marker)).toBe(false);
  });

  it('runs validators in the merge worktree: a failure stops the merge, redacts secrets, moves nothing', async () => {
    const s = setup({
      validators: [
        ['node', '-e', "process.exit(require('fs').existsSync('feature.txt') ? 0 : 5)"],
        'node -e \'console.log("token is " + process.env.DEPLOY_TOKEN); process.exit(3)\'',
      ],
    });
    s.deps.env = { ...s.deps.env, DEPLOY_TOKEN: 'super-secret-value' };
    branchWith(s.root, 'agent/v', 'main', { 'feature.txt': 'v\n' });
    const before = headOfBranch(s.root, 'integration');
    const m = await enqueue(s, 'agent/v');
    const done = await integrateMerge(s.deps, s.target, { merge_id: m.merge_id });
    expect(done.status).toBe('validation_failed');
    expect(done.validation?.ok).toBe(false);
    expect(done.validation?.commands.map((c) => c.exit_code)).toEqual([0, 3]);
    expect(done.validation?.commands[1]?.stdout).toContain('token is ***DEPLOY_TOKEN***');
    expect(JSON.stringify(done)).not.toContain('super-secret-value');
    expect(headOfBranch(s.root, 'integration')).toBe(before);
    expect((await events(s.store)).at(-1)!.kind).toBe('MergeValidationFailed');

    // Fixed config, retried: the same request passes and lands.
    s.deps.settings = mergeSettings({
      validators: [['node', '-e', "process.exit(require('fs').existsSync('feature.txt') ? 0 : 5)"]],
      regenerate: [],
      timeout_ms: 60_000,
    });
    const again = await retryMerge(s.deps, s.target, m.merge_id);
    expect(again).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(again.validation?.ok).toBe(true);
    expect(headOfBranch(s.root, 'integration')).toBe(again.commit_sha);
    const e = await fail(retryMerge(s.deps, s.target, m.merge_id));
    expect(e.details).toMatchObject({
      rule: 'status failed|conflict|validation_failed',
      status: 'succeeded',
    });
  });

  it('fails clearly and retryably when the target moved between the merge and the ref update', async () => {
    const s = setup();
    branchWith(s.root, 'main', 'main', { 'main2.txt': 'moved\n' });
    // The validator moves the target behind the integrator's back (another tool, another machine).
    s.deps.settings = mergeSettings({
      validators: [['git', '-C', s.root, 'branch', '-f', 'integration', 'main']],
      regenerate: [],
      timeout_ms: 60_000,
    });
    branchWith(s.root, 'agent/x', 'integration', { 'x.txt': 'x\n' });
    const m = await enqueue(s, 'agent/x');
    const done = await integrateMerge(s.deps, s.target, { merge_id: m.merge_id });
    expect(done).toMatchObject({ status: 'failed', retryable: true });
    expect(done.error_message).toContain('moved');
    expect(headOfBranch(s.root, 'integration')).toBe(headOfBranch(s.root, 'main'));
  });

  it('takes back a request left running by an integrator that died, and only then', async () => {
    const s = setup();
    branchWith(s.root, 'agent/d', 'main', { 'd.txt': 'd\n' });
    const m = await enqueue(s, 'agent/d');
    await transitionMerge(s.deps, s.target, {
      action: 'claim',
      merge_id: m.merge_id,
      integrator: 'h:424242',
    });
    const alive = await fail(retryMerge(s.deps, s.target, m.merge_id));
    expect(alive.details).toMatchObject({ status: 'running', integrator: 'h:424242' });
    expect(alive.message).toContain('integrator process of this machine that is gone');
    s.deps.integratorGone = (i) => i === 'h:424242';
    const done = await retryMerge(s.deps, s.target, m.merge_id);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect((await events(s.store)).find((e) => e.data.requeued_from === 'running')?.data).toMatchObject({
      stale_integrator: 'h:424242',
    });
  });

  it('fails a request whose source branch disappeared, and refuses unknown or non-queued requests', async () => {
    const s = setup();
    branchWith(s.root, 'agent/gone', 'main', { 'g.txt': 'g\n' });
    const m = await enqueue(s, 'agent/gone');
    git(s.root, ['branch', '-D', 'agent/gone']);
    const done = await integrateMerge(s.deps, s.target, {});
    expect(done).toMatchObject({ status: 'failed', retryable: false });
    expect(done.error_message).toContain("'agent/gone' does not exist");
    expect((await fail(integrateMerge(s.deps, s.target, { merge_id: m.merge_id }))).details).toMatchObject({
      status: 'failed',
    });
    expect((await fail(integrateMerge(s.deps, s.target, { merge_id: 'nope' }))).code).toBe('not_found');
    expect((await fail(integrateMerge(s.deps, s.target, {}))).code).toBe('not_found');
  });

  it('checks branches at enqueue: the source must exist, the target too (saying how to make it)', async () => {
    const s = setup();
    expect((await fail(enqueue(s, 'agent/none'))).details).toMatchObject({ field: 'branch' });
    branchWith(s.root, 'agent/y', 'main', { 'y.txt': 'y\n' });
    const e = await fail(enqueue(s, 'agent/y', 'release'));
    expect(e.details).toMatchObject({ field: 'into', value: 'release' });
    expect(e.message).toContain('merge rollup');
    for (const bad of ['-x', '--upload-pack=evil', '../x', 'a..b'])
      expect((await fail(enqueue(s, bad))).code).toBe('validation');
    expect((await fail(enqueue(s, 'agent/y', '../x'))).details).toMatchObject({ field: 'into' });
  });
});
