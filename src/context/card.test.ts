import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, git, removeTempDir } from '../../test/fixtures/index.js';
import { Catalog } from '../catalog/index.js';
import { readManifestFile } from '../model/index.js';
import { buildRepoCard, compactCard } from './card.js';
import { openCommitCache } from './commit-cache.js';
import { readmeExcerpt } from './repo-scan.js';

let tmp: string;
let catalog: Catalog;
const now = new Date();

beforeAll(() => {
  tmp = createTempDir('hub-card-');
  const ws = buildWorkspace({
    root: join(tmp, 'ws'),
    projects: [
      {
        name: 'p',
        repos: [
          {
            name: 'app',
            files: {
              'README.md': '# app\n\n[![ci](x)](y)\n\nThe app that does things.\nSecond line.\n\nMore.\n',
              'package.json': '{"name":"app"}\n',
              'tsconfig.json': '{}\n',
              '.github/workflows/ci.yml': 'name: ci\n',
              'services/api/go.mod': 'module x\n',
              'node_modules/dep/Cargo.toml': '[package]\n',
            },
            components: [
              { name: 'api', path: 'services/api', kind: 'service', commands: { test: 'go test ./...' } },
            ],
            extra: {
              ci: { provider: 'github_actions', workflow: '.github/workflows/missing.yml' },
              agent_instructions: 'Be careful.',
              tags: { team: 'x' },
            },
          },
          { name: 'bare', files: { 'main.py': 'print(1)\n' } },
          { name: 'gone', url: 'https://example.com/gone.git' },
        ],
      },
    ],
  });
  catalog = new Catalog(readManifestFile(ws.manifestPath));
});
afterAll(() => removeTempDir(tmp));

const repo = (id: string) => catalog.repoById.get(id)!;

describe('repo card', () => {
  it('reads git state, stack hints, CI, README and manifest fields', async () => {
    const card = await buildRepoCard(catalog, repo('p/app'), { now });
    expect(card).toMatchObject({
      project: 'p',
      repo: 'app',
      status: 'synced',
      exists: true,
      is_git_repo: true,
      branch: 'main',
      dirty: false,
      ahead: null,
      head_commit_age_days: 0,
      readme: 'The app that does things. Second line.',
      agent_instructions: 'Be careful.',
      tags: { team: 'x' },
      ci: {
        provider: 'github_actions',
        config: '.github/workflows/missing.yml',
        source: 'manifest+detected',
      },
      components: [{ name: 'api', path: 'services/api', kind: 'service' }],
    });
    // The component's manifest commands lead the card's commands, then what the checkout declares.
    expect(card.commands).toEqual([
      {
        kind: 'test',
        command: 'go test ./...',
        dir: 'services/api',
        source: 'manifest',
      },
      { kind: 'build', command: 'go build ./...', dir: 'services/api', source: 'services/api/go.mod' },
      { kind: 'lint', command: 'go vet ./...', dir: 'services/api', source: 'services/api/go.mod' },
    ]);
    expect(card.edges).toBeUndefined();
    expect(card.last_commit?.subject).toBe('Initial commit');
    expect(card.stack_hints).toEqual([
      { stack: 'node', file: 'package.json' },
      { stack: 'typescript', file: 'tsconfig.json' },
      { stack: 'go', file: 'services/api/go.mod' },
    ]);
    expect(card.top_level).toEqual(['README.md', 'package.json', 'services/', 'tsconfig.json']);
    expect(card.health_flags).toEqual(['ci_config_missing']);
  });

  it('flags uncommitted changes, unpushed commits and a detached head from real git state', async () => {
    const dir = repo('p/bare').root;
    const origin = join(tmp, 'origin.git');
    execFileSync('git', ['init', '-q', '--bare', origin]);
    git(dir, ['remote', 'add', 'origin', origin]);
    git(dir, ['push', '-q', '-u', 'origin', 'main']);
    writeFileSync(join(dir, 'b.py'), 'x\n');
    git(dir, ['add', '.']);
    git(dir, ['commit', '-q', '-m', 'Local work']);
    writeFileSync(join(dir, 'wip.py'), 'wip\n');
    const card = await buildRepoCard(catalog, repo('p/bare'), { now });
    expect(card).toMatchObject({ dirty: true, changes: 1, ahead: 1, behind: 0 });
    expect(card.health_flags).toEqual(
      expect.arrayContaining(['uncommitted_changes', 'unpushed_commits', 'no_ci', 'no_readme']),
    );
    expect(card.last_commit?.subject).toBe('Local work');
    expect(card.earlier_subjects).toEqual(['Initial commit']);

    git(dir, ['checkout', '-q', '--detach', 'HEAD~1']);
    const detached = await buildRepoCard(catalog, repo('p/bare'), { now });
    expect(detached.branch).toBeNull();
    expect(detached.health_flags).toContain('detached_head');
    git(dir, ['checkout', '-q', 'main']);
  });

  it('describes a repository that is not checked out', async () => {
    const card = await buildRepoCard(catalog, repo('p/gone'), { now });
    expect(card).toMatchObject({
      status: 'missing',
      exists: false,
      is_git_repo: false,
      health_flags: ['missing_checkout'],
    });
  });

  it('reads the head commit through the cache: a known id costs no git log', async () => {
    const cache = openCommitCache(join(tmp, 'cache', 'commits.json'));
    const first = await buildRepoCard(catalog, repo('p/app'), { now, cache });
    cache.save();
    const reopened = openCommitCache(join(tmp, 'cache', 'commits.json'));
    const head = git(repo('p/app').root, ['rev-parse', 'HEAD']);
    expect(reopened.get(head)?.subject).toBe(first.last_commit?.subject);
    reopened.set(head, { at: '2020-01-01T00:00:00Z', subject: 'from the cache', earlier: [] });
    const second = await buildRepoCard(catalog, repo('p/app'), { now, cache: reopened });
    expect(second.last_commit?.subject).toBe('from the cache');
    expect(second.head_commit_age_days).toBeGreaterThan(2000);
    expect(second.health_flags).toContain('stale');
  });

  it('compacts to the essentials, commands kept', async () => {
    const card = compactCard(await buildRepoCard(catalog, repo('p/app'), { now }));
    expect(card.components).toBeUndefined();
    expect(card.commands).toHaveLength(3);
    expect(card.readme).toBeUndefined();
    expect(card.stack_hints).toEqual(['node', 'typescript', 'go']);
    expect(card.health_flags).toEqual(['ci_config_missing']);
  });

  it('takes the first prose paragraph of a README', () => {
    expect(readmeExcerpt('# T\n\n---\n\n<p>x</p>\n\nHello\nworld\n')).toBe('Hello world');
    expect(readmeExcerpt('# only a title\n')).toBeNull();
    expect(readmeExcerpt(`${'word '.repeat(100)}`)!.length).toBeLessThanOrEqual(200);
  });
});
