import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltWorkspace, buildWorkspace, removeTempDir, thrown } from '../../test/fixtures/index.js';
import { AmbiguousError, ValidationError } from '../infra/index.js';
import { readManifestFile } from '../model/manifest-file.js';
import { Catalog } from './catalog.js';
import { longestMatch, type ResolveInput, resolveComponent } from './resolve.js';

describe('resolveComponent on a multi-repo workspace', () => {
  let ws: BuiltWorkspace;
  let catalog: Catalog;
  let dirApi: string;
  let dirWeb: string;
  let dirTools: string;
  const resolve = (input: Partial<ResolveInput> & { path: string }) =>
    resolveComponent(catalog, { base: ws.root, ...input });

  beforeAll(() => {
    ws = buildWorkspace({
      projects: [
        {
          name: 'alpha',
          repos: [
            {
              name: 'api',
              files: {
                'services/api/package.json': '{"name":"api"}\n',
                'services/api/src/main.ts': 'export {};\n',
                'services/api/plugins/auth/go.mod': 'module auth\n',
                'services/api/plugins/auth/oauth.go': 'package auth\n',
                'libs/util/index.ts': 'export {};\n',
                'docs/readme.md': '# docs\n',
              },
              components: [
                { name: 'api', path: 'services/api', kind: 'service' },
                // Declared after its parent on purpose: longest match must not depend on order.
                { name: 'auth', path: 'services/api/plugins/auth', kind: 'plugin' },
                { name: 'util', path: './libs/util/', kind: 'library' },
              ],
            },
            {
              name: 'web',
              files: {
                'apps/web/package.json': '{"name":"web"}\n',
                'services/api/package.json': '{"name":"web-api"}\n',
              },
              components: [
                { name: 'web', path: 'apps/web', kind: 'application' },
                { name: 'web-api', path: 'services/api', kind: 'service' },
              ],
            },
          ],
        },
        {
          name: 'beta',
          repos: [
            {
              name: 'tools',
              files: { 'package.json': '{}\n', 'cmd/cli/main.go': 'package main\n' },
              components: [
                { name: 'cli', path: 'cmd/cli' },
                { name: 'tools', path: '.' },
              ],
            },
          ],
        },
      ],
    });
    catalog = new Catalog(readManifestFile(ws.manifestPath));
    dirApi = ws.repoDirs['alpha/api']!;
    dirWeb = ws.repoDirs['alpha/web']!;
    dirTools = ws.repoDirs['beta/tools']!;
  });
  afterAll(() => removeTempDir(ws.root));

  describe('longest match', () => {
    it('picks the nested component for a file under it (filesystem path)', () => {
      const r = resolve({ path: join(dirApi, 'services/api/plugins/auth/oauth.go') });
      expect(r).toMatchObject({
        matched: true,
        mode: 'filesystem',
        repository: 'alpha/api',
        relative_path: 'services/api/plugins/auth/oauth.go',
        id: 'alpha/api/auth',
      });
      expect(r.component).toMatchObject({
        id: 'alpha/api/auth',
        name: 'auth',
        path: 'services/api/plugins/auth',
      });
    });

    it('picks the enclosing component for a sibling of the nested one', () => {
      const r = resolve({ path: join(dirApi, 'services/api/src/main.ts') });
      expect(r.id).toBe('alpha/api/api');
      expect(r.relative_path).toBe('services/api/src/main.ts');
    });

    it('matches the component directory itself and a non-existent path below it', () => {
      expect(resolve({ path: join(dirApi, 'services/api') }).id).toBe('alpha/api/api');
      expect(resolve({ path: join(dirApi, 'services/api/plugins/auth') }).id).toBe('alpha/api/auth');
      expect(resolve({ path: join(dirApi, 'services/api/plugins/auth/not/yet/there.go') }).id).toBe(
        'alpha/api/auth',
      );
    });

    it('does not match a sibling directory that only shares a name prefix', () => {
      const r = resolve({ path: join(dirApi, 'services/api-old/x.ts') });
      expect(r.matched).toBe(false);
      expect(r.repository).toBe('alpha/api');
    });

    it('falls back to a root component (path ".") when nothing deeper matches', () => {
      expect(resolve({ path: join(dirTools, 'README.md') }).id).toBe('beta/tools/tools');
      expect(resolve({ path: dirTools }).id).toBe('beta/tools/tools');
      expect(resolve({ path: join(dirTools, 'cmd/cli/main.go') }).id).toBe('beta/tools/cli');
    });

    it('longestMatch walks up to the root and returns undefined for an unknown repo', () => {
      expect(longestMatch(catalog, 'alpha/api', 'services/api/plugins/auth/a/b/c')?.id).toBe(
        'alpha/api/auth',
      );
      expect(longestMatch(catalog, 'alpha/api', 'docs')).toBeUndefined();
      expect(longestMatch(catalog, 'alpha/api', '.')).toBeUndefined();
      expect(longestMatch(catalog, 'nope/nope', 'services/api')).toBeUndefined();
    });
  });

  describe('repo-relative vs filesystem paths', () => {
    it('reads a relative path as repo-relative when --repo names one repository', () => {
      const r = resolve({ path: 'services/api/plugins/auth/oauth.go', project: 'alpha', repo: 'api' });
      expect(r).toMatchObject({
        matched: true,
        mode: 'repo_relative',
        repository: 'alpha/api',
        relative_path: 'services/api/plugins/auth/oauth.go',
        id: 'alpha/api/auth',
      });
      // The same relative path in the other repo resolves there.
      expect(resolve({ path: 'services/api/x', repo: 'web' }).id).toBe('alpha/web/web-api');
    });

    it('ignores the base when the relative path is repo-relative to a named repo', () => {
      const r = resolve({ path: 'libs/util', repo: 'api', base: '/definitely/elsewhere' });
      expect(r.id).toBe('alpha/api/util');
      expect(r.mode).toBe('repo_relative');
    });

    it('reads an absolute path through the filesystem mapping', () => {
      const r = resolve({ path: join(dirWeb, 'apps/web/src/index.ts') });
      expect(r.mode).toBe('filesystem');
      expect(r.repository).toBe('alpha/web');
      expect(r.id).toBe('alpha/web/web');
      expect(r.path).toBe(join(dirWeb, 'apps/web/src/index.ts'));
    });

    it('reports the repo root itself with relative_path "." and no match when no root component', () => {
      const r = resolve({ path: dirApi });
      expect(r).toMatchObject({
        matched: false,
        mode: 'filesystem',
        repository: 'alpha/api',
        relative_path: '.',
        id: null,
        component: null,
      });
    });
  });

  describe('relative filesystem path with a base', () => {
    it('resolves against the base (the definition root)', () => {
      const r = resolve({ path: 'alpha/api/services/api/plugins/auth' });
      expect(r).toMatchObject({ mode: 'filesystem', repository: 'alpha/api', id: 'alpha/api/auth' });
    });

    it('resolves against a base inside a repository', () => {
      const r = resolve({ path: 'api/src', base: join(dirApi, 'services') });
      expect(r).toMatchObject({
        mode: 'filesystem',
        repository: 'alpha/api',
        relative_path: 'services/api/src',
        id: 'alpha/api/api',
      });
    });

    it('follows ../ from a base in one repo into another repo (no filters)', () => {
      const r = resolve({ path: '../web/apps/web', base: dirApi });
      expect(r).toMatchObject({ mode: 'filesystem', repository: 'alpha/web', id: 'alpha/web/web' });
    });

    it('uses the base, not the process working directory', () => {
      const r = resolve({ path: 'services/api/plugins/auth', base: dirApi });
      expect(r.id).toBe('alpha/api/auth');
      expect(process.cwd()).not.toBe(dirApi);
    });
  });

  describe('explicit project/repo intersected with the filesystem mapping', () => {
    it('accepts an absolute path inside the named repo', () => {
      const r = resolve({ path: join(dirApi, 'libs/util/index.ts'), project: 'alpha', repo: 'api' });
      expect(r.id).toBe('alpha/api/util');
      expect(r.mode).toBe('filesystem');
    });

    it('accepts a path in any repo of the named project', () => {
      expect(resolve({ path: join(dirWeb, 'apps/web'), project: 'alpha' }).id).toBe('alpha/web/web');
      expect(resolve({ path: join(dirApi, 'libs/util'), project: 'alpha' }).id).toBe('alpha/api/util');
    });

    it('rejects an absolute path in another repo than --repo (cross_repo)', () => {
      const err = thrown(() => resolve({ path: join(dirWeb, 'apps/web'), project: 'alpha', repo: 'api' }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.details).toMatchObject({ rule: 'cross_repo', repository: 'alpha/web', field: 'path' });
      expect(err.message).toContain('alpha/web');
    });

    it('rejects an absolute path in another project than --project (cross_repo)', () => {
      const err = thrown(() => resolve({ path: join(dirTools, 'cmd/cli'), project: 'alpha' }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.details?.rule).toBe('cross_repo');
      expect(err.details?.repository).toBe('beta/tools');
    });

    it('rejects a relative filesystem path landing in another repo than the filter', () => {
      const err = thrown(() => resolve({ path: 'beta/tools/cmd/cli', project: 'alpha' }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.details?.rule).toBe('cross_repo');
    });

    it('rejects filters that match no repository', () => {
      const err = thrown(() => resolve({ path: 'x', project: 'alpha', repo: 'nope' }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.details?.rule).toBe('unknown_scope');
      expect(thrown(() => resolve({ path: 'x', project: 'gamma' })).details?.rule).toBe('unknown_scope');
    });
  });

  describe('escaping paths', () => {
    it('rejects ../ that escapes the named repository', () => {
      const err = thrown(() => resolve({ path: '../web/apps/web', project: 'alpha', repo: 'api' }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.details).toMatchObject({ rule: 'cross_repo', repository: 'alpha/api' });
    });

    it('rejects ../ hidden behind a normal segment', () => {
      const err = thrown(() => resolve({ path: 'services/../../outside', repo: 'api' }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.details?.rule).toBe('cross_repo');
    });

    it('accepts ../ that stays inside the repository', () => {
      expect(resolve({ path: 'docs/../services/api/plugins/auth', repo: 'api' }).id).toBe('alpha/api/auth');
    });
  });

  describe('misses', () => {
    it('returns matched:false for an absolute path outside every repository', () => {
      const r = resolve({ path: '/definitely/not/a/repo/file.ts' });
      expect(r).toEqual({
        matched: false,
        path: '/definitely/not/a/repo/file.ts',
        mode: 'filesystem',
        repository: null,
        relative_path: null,
        component: null,
        id: null,
      });
    });

    it('returns matched:false for an uncatalogued path inside a repo', () => {
      const r = resolve({ path: 'docs/readme.md', repo: 'api' });
      expect(r).toMatchObject({
        matched: false,
        repository: 'alpha/api',
        relative_path: 'docs/readme.md',
        id: null,
      });
      expect(resolve({ path: join(dirWeb, 'README.md') }).matched).toBe(false);
    });

    it('returns matched:false for a relative path that is in no repo under the base nor in any repo', () => {
      const r = resolve({ path: 'nothing/here' });
      expect(r.matched).toBe(false);
      expect(r.mode).toBe('repo_relative');
      expect(r.repository).toBeNull();
    });
  });

  describe('invalid path values', () => {
    it('rejects an empty path with a ValidationError', () => {
      const err = thrown(() => resolve({ path: '' }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.details).toMatchObject({ field: 'path', rule: 'required' });
    });

    it('rejects a blank or missing path', () => {
      expect(thrown(() => resolve({ path: '   ' }))).toBeInstanceOf(ValidationError);
      expect(thrown(() => resolve({ path: undefined as unknown as string }))).toBeInstanceOf(ValidationError);
    });

    it('rejects a NUL byte', () => {
      const err = thrown(() => resolve({ path: 'services/\0api' }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.details?.rule).toBe('no_nul');
    });
  });

  describe('ambiguous repo-relative fallback across repos', () => {
    it('throws AmbiguousError listing every candidate', () => {
      const err = thrown(() => resolve({ path: 'services/api/x.ts' }));
      expect(err).toBeInstanceOf(AmbiguousError);
      expect(err.details?.candidates).toEqual(['alpha/api/api', 'alpha/web/web-api']);
      expect(err.message).toContain('alpha/api/api');
      expect(err.message).toContain('alpha/web/web-api');
    });

    it('stays ambiguous when --project still covers both repos', () => {
      expect(thrown(() => resolve({ path: 'services/api', project: 'alpha' }))).toBeInstanceOf(
        AmbiguousError,
      );
    });

    it('is settled by --repo', () => {
      expect(resolve({ path: 'services/api', repo: 'api' }).id).toBe('alpha/api/api');
      expect(resolve({ path: 'services/api', repo: 'web' }).id).toBe('alpha/web/web-api');
    });

    it('resolves a unique repo-relative fallback without filters', () => {
      const r = resolve({ path: 'apps/web/src/main.ts' });
      expect(r).toMatchObject({
        matched: true,
        mode: 'repo_relative',
        repository: 'alpha/web',
        relative_path: 'apps/web/src/main.ts',
        id: 'alpha/web/web',
      });
      expect(resolve({ path: 'cmd/cli' }).id).toBe('beta/tools/cli');
    });

    it('does not count a root component as a fallback hit', () => {
      // beta/tools has a component at '.', which would otherwise match every path.
      expect(resolve({ path: 'libs/util' }).id).toBe('alpha/api/util');
      expect(resolve({ path: 'nothing/here' }).matched).toBe(false);
    });
  });

  describe('normalization', () => {
    it('normalizes ./x/, doubled slashes and . segments', () => {
      expect(resolve({ path: './services/api/', repo: 'api' })).toMatchObject({
        id: 'alpha/api/api',
        relative_path: 'services/api',
      });
      expect(resolve({ path: 'services//api/plugins/./auth', repo: 'api' })).toMatchObject({
        id: 'alpha/api/auth',
        relative_path: 'services/api/plugins/auth',
      });
      expect(resolve({ path: 'services\\api\\plugins\\auth', repo: 'api' }).id).toBe('alpha/api/auth');
    });

    it('keeps the input path as given in the result', () => {
      expect(resolve({ path: './services/api/', repo: 'api' }).path).toBe('./services/api/');
    });

    it('matches a component declared with a non-normalized path', () => {
      expect(catalog.componentById.get('alpha/api/util')?.path).toBe('libs/util');
      expect(resolve({ path: 'libs/util/index.ts', repo: 'api' }).id).toBe('alpha/api/util');
      expect(resolve({ path: join(dirApi, 'libs//util/') }).id).toBe('alpha/api/util');
    });

    it('reads "." as the repository root', () => {
      expect(resolve({ path: '.', repo: 'tools' }).id).toBe('beta/tools/tools');
      expect(resolve({ path: './', repo: 'api' })).toMatchObject({ matched: false, relative_path: '.' });
    });
  });
});
