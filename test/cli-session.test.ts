import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let manifest: string;

beforeAll(() => {
  dir = createTempDir('hub-session-');
  manifest = createDemo(join(dir, 'demo')).manifestPath;
});
afterAll(() => removeTempDir(dir));

describe('sessions', () => {
  it('begins, digests new commits and dirty state exactly, and moves the boundary', () => {
    const hub = (...args: string[]) => runHub(['-c', manifest, ...args, '--json']);
    const first = hub('session', 'begin', '--project-name', 'platform');
    expect(first.code).toBe(0);
    const env = first.json();
    expect(env).toMatchObject({ ok: true, project: 'platform', digest: { first_session: true } });
    expect(env.manifest.repos).toContain('platform/identity');
    expect(env.manifest.repos).not.toContain('storefront/web');

    const repo = join(dir, 'demo/platform/identity');
    writeFileSync(join(repo, 'CHANGELOG.md'), 'x\n');
    git(repo, ['add', '.']);
    git(repo, ['commit', '-q', '-m', 'Add a changelog']);
    writeFileSync(join(repo, 'scratch.txt'), 'wip\n');

    const digest = hub('session', 'digest', '--project', 'platform').json();
    expect(digest.first_session).toBe(false);
    const identity = digest.repo_changes.find(
      (c: { repository: string }) => c.repository === 'platform/identity',
    );
    expect(identity).toMatchObject({ commit_count: 1, recent_subjects: ['Add a changelog'], dirty: true });
    const gateway = digest.repo_changes.find(
      (c: { repository: string }) => c.repository === 'platform/gateway',
    );
    expect(gateway).toMatchObject({ commit_count: 0, dirty: false });
    const billing = digest.repo_changes.find(
      (c: { repository: string }) => c.repository === 'platform/legacy-billing',
    );
    expect(billing).toMatchObject({ is_git_repo: false, commit_count: 0 });

    // Reading the digest does not move the boundary (it has no --advance); session update --advance does.
    expect(hub('session', 'digest', '--advance').code).toBe(2);
    expect(hub('session', 'digest', '--project', 'platform').json().repo_changes[0].commit_count).toBe(1);
    hub('session', 'update', '--project', 'platform', '--advance');
    const after = hub('session', 'digest', '--project', 'platform').json();
    expect(after.repo_changes.every((c: { commit_count: number }) => c.commit_count === 0)).toBe(true);
  });

  it('reports the active objective set on the session', () => {
    const hub = (...args: string[]) => runHub(['-c', manifest, ...args, '--json']);
    const store = join(dir, 'demo/.hub/objectives.json');
    writeFileSync(
      store,
      JSON.stringify({
        objectives: [{ id: 'obj-1', title: 'T', status: 'pending', updated_at: '2026-01-01T00:00:00Z' }],
      }),
    );
    expect(hub('session', 'update', '--active-objective-id', 'obj-1').code).toBe(0);
    expect(hub('session', 'digest').json().active_objective_id).toBe('obj-1');
  });
});
