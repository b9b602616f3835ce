import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, git, makeGitRepo, removeTempDir } from '../../test/fixtures/index.js';
import { Catalog, checkoutsOf } from '../catalog/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { readManifestFile } from '../model/index.js';
import { repoKey, resolveRepository } from './repository-ref.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

function depsFor(manifestPath: string) {
  const catalog = new Catalog(readManifestFile(manifestPath));
  return { catalog, checkouts: checkoutsOf(catalog), definitionRoot: catalog.file.root };
}

const thrown = async (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('resolveRepository', () => {
  const ws = buildWorkspace({
    projects: [
      {
        name: 'platform',
        repos: [
          { name: 'identity', files: { 'a.txt': 'a' } },
          { name: 'web', url: 'https://example.com/web.git' },
        ],
      },
    ],
  });
  temps.push(ws.root);
  const deps = depsFor(ws.manifestPath);

  it('takes project/repo of the manifest, with its real checkout', async () => {
    const t = await resolveRepository(deps, 'platform/identity');
    expect(t).toMatchObject({ id: 'platform/identity', key: 'platform~identity', self: false });
    expect(t.root).toBe(ws.repoDirs['platform/identity']);
  });

  it('gives a repository that is not checked out no root', async () => {
    expect((await resolveRepository(deps, 'platform/web')).root).toBeUndefined();
  });

  it('refuses what is not project/repo, naming the rule', async () => {
    for (const bad of ['identity', 'a/b/c', '/x', 'platform/']) {
      const e = await thrown(resolveRepository(deps, bad));
      expect(e, bad).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).details).toMatchObject({ field: 'repository', rule: 'project/repo' });
    }
  });

  it('answers an unknown repository with did-you-mean', async () => {
    const e = (await thrown(resolveRepository(deps, 'platform/identty'))) as NotFoundError;
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.details).toMatchObject({ field: 'repository', suggestions: ['identity'] });
  });

  it('refuses . when the manifest is not in a git repository', async () => {
    const e = await thrown(resolveRepository(deps, '.'));
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).details).toMatchObject({ rule: 'definition_repository' });
  });

  it('takes . and self as the git repository holding the manifest, id self when unlisted', async () => {
    const root = createTempDir('hub-acl-self-');
    temps.push(root);
    makeGitRepo(root, { 'README.md': '# meta\n' });
    writeFileSync(join(root, '.hub.yml'), 'workspace:\n  name: w\n  projects: []\n');
    const t = await resolveRepository(depsFor(join(root, '.hub.yml')), 'self');
    expect(t).toMatchObject({ id: 'self', key: 'self', self: true });
    expect(t.root).toBe(git(root, ['rev-parse', '--show-toplevel']));
  });

  it('takes . as the listed repository when the manifest lives in one', async () => {
    const root = createTempDir('hub-acl-dot-');
    temps.push(root);
    makeGitRepo(root, { 'README.md': '# meta\n' });
    writeFileSync(
      join(root, '.hub.yml'),
      'workspace:\n  name: w\n  projects:\n    - name: meta\n      repos:\n        - name: hub\n          path: .\n',
    );
    const t = await resolveRepository(depsFor(join(root, '.hub.yml')), '.');
    expect(t).toMatchObject({ id: 'meta/hub', key: 'meta~hub', self: true });
  });

  it('refuses a repository outside the workspace', async () => {
    const base = createTempDir('hub-acl-out-');
    temps.push(base);
    mkdirSync(join(base, 'ws'));
    makeGitRepo(join(base, 'elsewhere'), { 'a.txt': 'a' });
    symlinkSync(join(base, 'elsewhere'), join(base, 'ws', 'linked'));
    writeFileSync(
      join(base, 'ws', '.hub.yml'),
      'workspace:\n  name: w\n  projects:\n    - name: p\n      repos:\n        - name: r\n          path: ./linked\n',
    );
    const e = await thrown(resolveRepository(depsFor(join(base, 'ws', '.hub.yml')), 'p/r'));
    expect(e).toBeInstanceOf(RefusedError);
  });

  it('refuses self when the manifest sits below the root of its git repository, unless the user allows that root (issue 25)', async () => {
    const outer = createTempDir('hub-acl-outer-');
    temps.push(outer);
    makeGitRepo(outer, { 'README.md': '# monorepo\n' });
    const ws = join(outer, 'tools', 'ws');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, '.hub.yml'), 'workspace:\n  name: w\n  projects: []\n');
    const catalog = new Catalog(readManifestFile(join(ws, '.hub.yml')));
    const top = git(outer, ['rev-parse', '--show-toplevel']);
    for (const ref of ['self', '.']) {
      const e = (await thrown(resolveRepository(depsFor(join(ws, '.hub.yml')), ref))) as RefusedError;
      expect(e, ref).toBeInstanceOf(RefusedError);
      expect(e.details).toMatchObject({
        field: 'repository',
        value: ref,
        rule: 'definition_repository_inside_workspace',
        repository_root: top,
      });
      expect(e.message).toContain(top);
      expect(e.message).toContain('workspace.allowed_outside_paths');
    }
    // The user's own config (workspace.allowed_outside_paths, HUB_ALLOWED_OUTSIDE_PATHS) may allow that root.
    const allowed = { catalog, checkouts: checkoutsOf(catalog, () => [outer]), definitionRoot: ws };
    expect(await resolveRepository(allowed, 'self')).toMatchObject({ id: 'self', root: top, self: true });
  });

  it('keys a repository id without its slash', () => {
    expect(repoKey('Platform/identity.core')).toBe('Platform~identity.core');
  });
});
