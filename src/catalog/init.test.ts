import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildWorkspace,
  createTempDir,
  makeGitRepo,
  removeTempDir,
  thrown,
  writeManifest,
} from '../../test/fixtures/index.js';
import { errorMapping, RefusedError, ValidationError } from '../infra/index.js';
import { parseManifestText, readManifestFile } from '../model/manifest-file.js';
import { appendComponents } from './apply.js';
import { Catalog } from './catalog.js';
import { draftComponent, targetRepo } from './init.js';
import { validateCatalog } from './validate.js';

const MANIFEST = `# Init test workspace: this header comment must survive an apply.
workspace:
  name: init-test
  projects:
    - name: p
      repos:
        # The main repository (comment before a repo entry).
        - name: main
          path: ./p/main
          components:
            # Existing component comment.
            - name: api
              path: services/api # trailing comment on a path
              kind: service
        - name: bare # a repo without a components key
          path: ./p/bare
    - name: q
      repos:
        - name: other
          path: ./q/other
# Footer comment.
`;

const SINGLE = `# single-repo workspace
workspace:
  projects:
    - name: solo
      repos:
        - name: app
          path: ./solo/app # the only repo
`;

describe('component init', () => {
  let root: string;
  let manifestPath: string;
  const load = () => new Catalog(readManifestFile(manifestPath));

  beforeEach(() => {
    root = createTempDir('hub-init-');
    makeGitRepo(join(root, 'p/main'), {
      'services/api/go.mod': 'module api\n',
      'services/web/package.json': '{}\n',
      'libs/core/Cargo.toml': '\n',
    });
    makeGitRepo(join(root, 'p/bare'), { 'tools/cli/go.mod': 'module cli\n' });
    makeGitRepo(join(root, 'q/other'), { 'x/package.json': '{}\n' });
    manifestPath = writeManifest(root, MANIFEST);
  });
  afterEach(() => removeTempDir(root));

  describe('draftComponent', () => {
    it('defaults the name to the path basename and the kind to the directory hint', () => {
      const { repo, draft } = draftComponent(load(), { path: 'services/web', project: 'p', repo: 'main' });
      expect(repo.id).toBe('p/main');
      expect(draft).toEqual({ name: 'web', path: 'services/web', kind: 'service' });
      expect(draftComponent(load(), { path: 'libs/core', project: 'p', repo: 'main' }).draft).toEqual({
        name: 'core',
        path: 'libs/core',
        kind: 'library',
      });
      expect(draftComponent(load(), { path: 'tools/cli', project: 'p', repo: 'bare' }).draft.kind).toBe(
        'unknown',
      );
    });

    it('takes --name and --kind', () => {
      const { draft } = draftComponent(load(), {
        path: 'services/web/',
        name: 'storefront',
        kind: 'application',
        project: 'p',
        repo: 'main',
      });
      expect(draft).toEqual({ name: 'storefront', path: 'services/web', kind: 'application' });
    });

    it('names the repo root after the repository', () => {
      expect(draftComponent(load(), { path: '.', project: 'p', repo: 'bare' }).draft).toMatchObject({
        name: 'bare',
        path: '.',
      });
      expect(draftComponent(load(), { path: './', project: 'p', repo: 'bare' }).draft.path).toBe('.');
    });

    it('refuses a second init of the same normalized path', () => {
      for (const path of ['services/api', './services/api/', 'services//api', 'services/x/../api']) {
        const err = thrown(() => draftComponent(load(), { path, project: 'p', repo: 'main', name: 'other' }));
        expect(err).toBeInstanceOf(RefusedError);
        expect(err.details).toMatchObject({ field: 'path', existing: 'p/main/api' });
        expect(err.httpStatus).toBe(409);
        expect(errorMapping(err).exit).toBe(1);
      }
    });

    it('refuses a second init after the first was applied', () => {
      const first = draftComponent(load(), { path: 'services/web', project: 'p', repo: 'main' });
      appendComponents(load(), first.repo, [first.draft]);
      const err = thrown(() =>
        draftComponent(load(), { path: './services/web', project: 'p', repo: 'main' }),
      );
      expect(err).toBeInstanceOf(RefusedError);
      expect(err.details?.existing).toBe('p/main/web');
    });

    it('refuses a name already used in the repo', () => {
      const err = thrown(() =>
        draftComponent(load(), { path: 'libs/core', name: 'api', project: 'p', repo: 'main' }),
      );
      expect(err).toBeInstanceOf(RefusedError);
      expect(err.details).toMatchObject({ field: 'name', existing: 'p/main/api' });
    });

    it('rejects an invalid name', () => {
      for (const name of ['bad/name', '-x', '', 'a b']) {
        const err = thrown(() =>
          draftComponent(load(), { path: 'libs/core', name, project: 'p', repo: 'main' }),
        );
        expect(err).toBeInstanceOf(ValidationError);
        expect(err.details?.field).toBe('name');
      }
    });

    it('needs --project and --repo when the workspace has more than one repo', () => {
      for (const scope of [{}, { project: 'p' }, { repo: 'main' }]) {
        const err = thrown(() => draftComponent(load(), { path: 'libs/core', ...scope }));
        expect(err).toBeInstanceOf(ValidationError);
        expect(err.details?.rule).toBe('scope_required');
        expect(err.details?.repos).toEqual(['p/main', 'p/bare', 'q/other']);
      }
    });

    it('rejects an unknown repository', () => {
      const err = thrown(() => draftComponent(load(), { path: 'x', project: 'p', repo: 'nope' }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.details?.field).toBe('repo');
    });

    it('accepts an absolute path inside the repo and stores it repo-relative', () => {
      const abs = join(root, 'p/main/libs/core');
      const { draft } = draftComponent(load(), { path: abs, project: 'p', repo: 'main' });
      expect(draft).toEqual({ name: 'core', path: 'libs/core', kind: 'library' });
      expect(
        draftComponent(load(), { path: join(root, 'p/bare'), project: 'p', repo: 'bare' }).draft.path,
      ).toBe('.');
    });

    it('rejects an absolute path outside the repo (also in a sibling repo)', () => {
      for (const abs of [join(root, 'q/other/x'), join(root, 'p/main-old'), '/etc']) {
        const err = thrown(() => draftComponent(load(), { path: abs, project: 'p', repo: 'main' }));
        expect(err).toBeInstanceOf(ValidationError);
        expect(err.details?.rule).toBe('inside_repo');
      }
    });

    it('rejects a relative path escaping the repo', () => {
      for (const path of ['..', '../bare/tools', 'libs/../../x']) {
        const err = thrown(() => draftComponent(load(), { path, project: 'p', repo: 'main' }));
        expect(err).toBeInstanceOf(ValidationError);
        expect(err.details?.rule).toBe('inside_repo');
      }
    });

    it('never writes the manifest', () => {
      const before = readFileSync(manifestPath, 'utf8');
      draftComponent(load(), { path: 'libs/core', project: 'p', repo: 'main' });
      expect(readFileSync(manifestPath, 'utf8')).toBe(before);
    });
  });

  describe('single-repo workspace', () => {
    it('needs no --project/--repo', () => {
      const dir = createTempDir('hub-init-single-');
      try {
        makeGitRepo(join(dir, 'solo/app'), { 'svc/package.json': '{}\n' });
        const path = writeManifest(dir, SINGLE);
        const catalog = new Catalog(parseManifestText(SINGLE, path));
        expect(targetRepo(catalog).id).toBe('solo/app');
        const { repo, draft } = draftComponent(catalog, { path: 'svc' });
        expect(draft).toEqual({ name: 'svc', path: 'svc', kind: 'unknown' });
        appendComponents(catalog, repo, [draft]);
        const text = readFileSync(path, 'utf8');
        expect(text).toContain('# single-repo workspace');
        expect(text).toContain('# the only repo');
        const again = new Catalog(readManifestFile(path));
        expect(again.componentById.get('solo/app/svc')?.path).toBe('svc');
      } finally {
        removeTempDir(dir);
      }
    });
  });

  describe('appendComponents', () => {
    it('writes into repos[].components[] keeping comments; the manifest re-parses', () => {
      const catalog = load();
      const { repo, draft } = draftComponent(catalog, { path: 'services/web', project: 'p', repo: 'main' });
      appendComponents(catalog, repo, [draft]);
      const text = readFileSync(manifestPath, 'utf8');
      for (const comment of [
        '# Init test workspace: this header comment must survive an apply.',
        '# The main repository (comment before a repo entry).',
        '# Existing component comment.',
        '# trailing comment on a path',
        '# a repo without a components key',
        '# Footer comment.',
      ]) {
        expect(text).toContain(comment);
      }
      const file = parseManifestText(text, manifestPath);
      const repos = file.manifest.workspace!.projects![0]!.repos;
      expect(repos[0]!.components).toEqual([
        { name: 'api', path: 'services/api', kind: 'service' },
        { name: 'web', path: 'services/web', kind: 'service' },
      ]);
      expect(repos[1]!.components).toBeUndefined();
      const after = new Catalog(file);
      expect(after.componentById.get('p/main/web')).toMatchObject({ path: 'services/web', kind: 'service' });
      expect(validateCatalog(after, { filesystem: true })).toEqual([]);
    });

    it('creates components[] on a repo without one', () => {
      const catalog = load();
      const repo = targetRepo(catalog, 'p', 'bare');
      appendComponents(catalog, repo, [
        { name: 'cli', path: 'tools/cli', kind: 'tool' },
        { name: 'bare', path: '.', kind: 'unknown' },
      ]);
      const text = readFileSync(manifestPath, 'utf8');
      expect(text).toContain('# a repo without a components key');
      // A block sequence under the repo entry, not a flow one.
      expect(text).toContain(
        '          path: ./p/bare\n          components:\n            - name: cli\n              path: tools/cli\n',
      );
      const file = readManifestFile(manifestPath);
      expect(file.manifest.workspace!.projects![0]!.repos[1]!.components).toEqual([
        { name: 'cli', path: 'tools/cli', kind: 'tool' },
        { name: 'bare', path: '.', kind: 'unknown' },
      ]);
      // The other project is untouched.
      expect(file.manifest.workspace!.projects![1]!.repos[0]!.components).toBeUndefined();
    });

    it('writes nothing for an empty list', () => {
      const before = readFileSync(manifestPath);
      const catalog = load();
      appendComponents(catalog, targetRepo(catalog, 'p', 'main'), []);
      expect(readFileSync(manifestPath).equals(before)).toBe(true);
    });

    it('refuses an application manifest and leaves the file alone', () => {
      const dir = createTempDir('hub-init-app-');
      try {
        makeGitRepo(dir, { 'web/package.json': '{}\n', 'api/go.mod': '\n' });
        const text = `# app manifest\nkind: application\nname: shop\npaths:\n  - path: web\n`;
        const path = writeManifest(dir, text);
        const catalog = new Catalog(parseManifestText(text, path));
        const { repo, draft } = draftComponent(catalog, { path: 'api' });
        expect(repo).toMatchObject({ id: 'shop/shop', kind: 'application' });
        expect(draft).toEqual({ name: 'api', path: 'api', kind: 'unknown' });
        const err = thrown(() => appendComponents(catalog, repo, [draft]));
        expect(err).toBeInstanceOf(RefusedError);
        expect(err.details?.rule).toBe('application_manifest');
        expect(readFileSync(path, 'utf8')).toBe(text);
        // A second init of an application path is refused as well.
        expect(thrown(() => draftComponent(catalog, { path: './web' }))).toBeInstanceOf(RefusedError);
      } finally {
        removeTempDir(dir);
      }
    });

    it('refuses an application manifest that has no paths yet', () => {
      const dir = createTempDir('hub-init-app0-');
      try {
        makeGitRepo(dir, { 'web/package.json': '{}\n' });
        const text = 'kind: application\nname: empty-app\n';
        const path = writeManifest(dir, text);
        const catalog = new Catalog(parseManifestText(text, path));
        const { repo, draft } = draftComponent(catalog, { path: join(dir, 'web') });
        expect(repo.id).toBe('empty-app/empty-app');
        expect(draft.path).toBe('web');
        expect(thrown(() => appendComponents(catalog, repo, [draft]))).toBeInstanceOf(RefusedError);
        expect(readFileSync(path, 'utf8')).toBe(text);
      } finally {
        removeTempDir(dir);
      }
    });
  });

  describe('on a buildWorkspace manifest', () => {
    it('appends through the fixture-built manifest too', () => {
      const ws = buildWorkspace({
        projects: [{ name: 'a', repos: [{ name: 'r', files: { 'pkg/x/package.json': '{}\n' } }] }],
      });
      try {
        const catalog = new Catalog(readManifestFile(ws.manifestPath));
        const { repo, draft } = draftComponent(catalog, { path: join(ws.repoDirs['a/r']!, 'pkg/x') });
        appendComponents(catalog, repo, [draft]);
        const after = new Catalog(readManifestFile(ws.manifestPath));
        expect(after.components.map((c) => c.id)).toEqual(['a/r/x']);
      } finally {
        removeTempDir(ws.root);
      }
    });
  });
});
