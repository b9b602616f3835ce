import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as CI from '../../test/fixtures/ci-files.js';
import { buildWorkspace, createTempDir, git, removeTempDir } from '../../test/fixtures/index.js';
import { Catalog, checkoutsOf } from '../catalog/index.js';
import { runGit } from '../infra/index.js';
import { readManifestFile } from '../model/manifest-file.js';
import { activityEntries, openActivityCache } from './activity.js';
import { parseStatusCounts } from './git-status.js';
import { buildTerrain, type TerrainOptions } from './terrain.js';
import type { TerrainNode } from './types.js';

let tmp: string;
let root: string;
let catalog: Catalog;
const NOW = new Date();

beforeAll(() => {
  tmp = createTempDir('hub-terrain-');
  const upstream = join(tmp, 'upstream');
  const ws = buildWorkspace({
    root: join(tmp, 'ws'),
    projects: [
      {
        name: 'core',
        extra: { tags: { team: 'core-team' } },
        repos: [
          {
            name: 'api',
            files: {
              'README.md': '# api\n',
              'AGENTS.md': '# agents\n',
              'llms.txt': 'x\n',
              'docs/index.md': 'x\n',
              '.claude/agents/reviewer.md': '---\nname: reviewer\n---\n',
              '.github/workflows/ci.yml': CI.GITHUB_CI,
              Jenkinsfile: CI.JENKINSFILE,
            },
            components: [
              { name: 'server', path: 'server' },
              { name: 'client', path: 'client', depends_on: ['server'] },
            ],
            extra: {
              ci: { provider: 'github_actions', workflow: '.github/workflows/ci.yml' },
              tags: { team: 'api' },
            },
          },
          {
            name: 'web',
            files: { 'README.md': '# web\n', '.gitlab-ci.yml': CI.GITLAB_CI },
            extra: { ci: 'circleci' },
          },
          { name: 'merge', files: { 'f.txt': 'base\n' } },
          { name: 'legacy', url: 'https://example.com/legacy.git' },
          { name: 'broken', files: { 'a.txt': 'x\n' } },
          { name: 'plain', files: { 'a.txt': 'x\n' } },
        ],
      },
      {
        name: 'tools',
        repos: [
          { name: 'cli', files: { 'README.md': '# cli\n' }, extra: { agent_instructions: 'Run make.' } },
        ],
      },
    ],
    relationships: [
      {
        id: 'web-api',
        from: { project: 'core', repo: 'web' },
        to: { project: 'core', repo: 'api' },
        type: 'calls',
      },
      {
        id: 'cli-api',
        from: { project: 'tools', repo: 'cli' },
        to: { project: 'core', repo: 'api', component: 'server' },
        type: 'uses',
        status: 'deprecated',
      },
      { id: 'self', from: { project: 'core', repo: 'api' }, to: { project: 'core', repo: 'api' }, type: 'x' },
    ],
  });
  root = ws.root;
  const d = ws.repoDirs;
  // web: a feature branch with local work, behind and ahead of a real upstream.
  execFileSync('git', ['clone', '-q', '--bare', d['core/web']!, upstream]);
  git(d['core/web']!, ['remote', 'add', 'origin', upstream]);
  git(d['core/web']!, ['fetch', '-q', 'origin']);
  git(d['core/web']!, ['checkout', '-q', '-b', 'feature/cart', '--track', 'origin/main']);
  git(d['core/web']!, ['commit', '-q', '--allow-empty', '-m', 'local']);
  writeFileSync(join(d['core/web']!, 'README.md'), '# web, edited\n');
  writeFileSync(join(d['core/web']!, 'scratch.txt'), 'x\n');
  // merge: stopped on a conflict.
  const m = d['core/merge']!;
  git(m, ['checkout', '-q', '-b', 'other']);
  writeFileSync(join(m, 'f.txt'), 'theirs\n');
  git(m, ['commit', '-q', '-am', 'theirs']);
  git(m, ['checkout', '-q', 'main']);
  writeFileSync(join(m, 'f.txt'), 'ours\n');
  git(m, ['commit', '-q', '-am', 'ours']);
  expect(() => git(m, ['merge', '-q', 'other'])).toThrow();
  // broken: its .git names a git dir that is not there; git fails in it.
  execFileSync('rm', ['-rf', join(d['core/broken']!, '.git')]);
  writeFileSync(join(d['core/broken']!, '.git'), 'gitdir: /nonexistent/hub-terrain-test\n');
  // plain: a folder that is no git repository at all.
  execFileSync('rm', ['-rf', join(d['core/plain']!, '.git')]);
  catalog = new Catalog(readManifestFile(ws.manifestPath));
});
afterAll(() => removeTempDir(tmp));

const opts = (over: Partial<TerrainOptions> = {}): TerrainOptions => ({
  detail: 'enriched',
  checkouts: checkoutsOf(catalog),
  now: NOW,
  agentDirs: [
    { vendor: 'claude_code', dir: '.claude/agents', kind: 'agent', suffix: '.md' },
    { vendor: 'codex', dir: '.agents/skills', kind: 'skill' },
  ],
  ...over,
});
const byId = (nodes: TerrainNode[]) => Object.fromEntries(nodes.map((n) => [n.repo_id, n]));

describe('manifest detail', () => {
  it('lists every repository, also one whose .git git cannot read, with nothing read from checkouts', async () => {
    const t = await buildTerrain(catalog, opts({ detail: 'manifest' }));
    expect(t.total).toBe(7);
    expect(t.enrichment).toBeNull();
    const n = byId(t.nodes);
    expect(n['core/broken']).toMatchObject({
      exists: true,
      local_status: 'synced',
      is_git_repo: null,
      git: null,
      activity: null,
      pipeline: null,
      ci: { declared: null, detected: null, beacon: null },
      visual: { state: 'manifest', state_label: 'Manifest entry', color: 'unknown' },
    });
    expect(n['core/legacy']).toMatchObject({
      exists: false,
      local_status: 'configured_missing',
      visual: { color: 'gray' },
    });
    expect(n['core/api']!.agent).toMatchObject({
      has_agents_md: null,
      readiness: null,
      has_agent_profile: false,
    });
    expect(n['tools/cli']!.agent.has_agent_instructions).toBe(true);
    expect(n['core/api']!.ci.declared).toEqual({
      provider: 'github_actions',
      workflow: '.github/workflows/ci.yml',
    });
    expect(n['core/api']!.ownership).toEqual({ team: 'api', owner: null, key: 'api', source: 'repo_tags' });
    expect(n['core/web']!.ownership).toMatchObject({ key: 'core-team', source: 'project_tags' });
    expect(t.inferred).toEqual({ requested: false, available: false, edge_count: 0 });
  });

  it('carries the declared arcs between repositories, with health and consumer counts', async () => {
    const t = await buildTerrain(catalog, opts({ detail: 'manifest' }));
    expect(t.dependencies).toEqual([
      expect.objectContaining({
        from_id: 'repo:core/web',
        to_id: 'repo:core/api',
        source: 'manual',
        health: 'healthy',
        consumer_count: 2,
      }),
      expect.objectContaining({
        from_id: 'repo:tools/cli',
        to_id: 'repo:core/api',
        health: 'outdated',
        consumer_count: 2,
      }),
    ]);
    expect(byId(t.nodes)['core/api']!.dependencies).toEqual({
      declared_in: 2,
      declared_out: 0,
      inferred_in: 0,
      inferred_out: 0,
      internal: 1,
    });
  });
});

describe('enriched detail', () => {
  it('reads git state, activity, CI and agent readiness from the checkouts', async () => {
    const t = await buildTerrain(catalog, opts());
    const n = byId(t.nodes);
    expect(t.enrichment).toMatchObject({ git_repos: 5, git_errors: 1 });
    expect(n['core/api']).toMatchObject({
      is_git_repo: true,
      git: { branch: 'main', branch_kind: 'default', dirty: false, upstream: null, merge_conflicts: 0 },
      activity: { commits_24h: 1, level: 'active' },
      ci: { detected: ['github_actions', 'jenkins'], beacon: 'both', config_missing: false },
      agent: {
        has_agents_md: true,
        has_llms_txt: true,
        has_readme: true,
        has_docs: true,
        installed_agents: [{ vendor: 'claude_code', path: '.claude/agents', count: 1 }],
        documentation_score: 1,
        readiness: 'ready',
      },
      visual: { state: 'synced_main' },
    });
    expect(n['core/web']).toMatchObject({
      git: {
        branch: 'feature/cart',
        branch_kind: 'feature',
        upstream: 'origin/main',
        ahead: 1,
        behind: 0,
        dirty: true,
        uncommitted_count: 2,
        modified_count: 1,
        untracked_count: 1,
      },
      ci: { declared: { provider: 'circleci' }, detected: ['gitlab_ci'], beacon: 'mismatch' },
      agent: { readiness: 'partial' },
      visual: { state: 'branch', color: 'branch_feature', elevation: 0.48 },
      coordinates: { z: 0.48 },
    });
    expect(n['core/merge']).toMatchObject({
      git: { merge_conflicts: 1 },
      visual: { state: 'conflict', crack: 1 },
    });
    expect(n['core/broken']!.git!.error).toMatch(/not a git repository/);
    expect(n['core/broken']!.visual.state).toBe('git_error');
    expect(n['core/plain']).toMatchObject({ is_git_repo: false, git: null, visual: { state: 'not_git' } });
    expect(n['core/legacy']).toMatchObject({ git: null, is_git_repo: null, visual: { state: 'missing' } });
    expect(n['tools/cli']!.agent.readiness).toBe('ready');
    expect(t.inferred).toEqual({ requested: true, available: false, edge_count: 0 });
  });

  it('gives each checkout the counts its own git status gives, whatever the parallelism', async () => {
    const one = await buildTerrain(catalog, opts({ parallel: 1 }));
    const four = await buildTerrain(catalog, opts({ parallel: 4 }));
    expect(four.nodes.map((n) => n.git)).toEqual(one.nodes.map((n) => n.git));
    for (const n of one.nodes.filter((x) => x.git && !x.git.error)) {
      const dir = join(root, n.repo_path);
      const own = parseStatusCounts(
        (await runGit(['status', '--porcelain=v2', '--branch'], { cwd: dir })).stdout,
      );
      expect({ ...n.git, head_commit_at: undefined, head_commit_age_days: undefined }).toMatchObject({
        branch: own.branch,
        head: own.head,
        ahead: own.ahead,
        behind: own.behind,
        uncommitted_count: own.entries,
        merge_conflicts: own.unmerged,
      });
    }
  });

  it('with include_pipelines names what each CI file defines, status unknown', async () => {
    const t = await buildTerrain(catalog, opts({ includePipelines: true, project: 'core', limit: 1 }));
    expect(t.nodes[0]!.pipeline).toMatchObject({
      status: 'unknown',
      providers: [
        { provider: 'github_actions', files: [{ path: '.github/workflows/ci.yml', jobs: ['lint', 'test'] }] },
        {
          provider: 'jenkins',
          files: [{ path: 'Jenkinsfile', stages: ['Checkout', 'Build & Test', 'Publish'] }],
        },
      ],
    });
  });

  it('uses an inferred-edge source when one is wired in', async () => {
    const t = await buildTerrain(
      catalog,
      opts({
        inferred: () => [
          {
            id: 'inf:1',
            from_id: 'repo:tools/cli',
            to_id: 'repo:core/web',
            type: 'npm',
            label: null,
            source: 'inferred',
            health: 'healthy',
            consumer_count: 0,
            evidence: 'package.json',
          },
        ],
      }),
    );
    expect(t.inferred).toEqual({ requested: true, available: true, edge_count: 1 });
    expect(byId(t.nodes)['core/web']!.dependencies).toMatchObject({ declared_out: 1, inferred_in: 1 });
    const off = await buildTerrain(catalog, opts({ includeInferred: false, inferred: () => [] }));
    expect(off.inferred).toEqual({ requested: false, available: false, edge_count: 0 });
  });
});

describe('pages', () => {
  it('pages nodes over a layout of every repository, with the arcs touching the page', async () => {
    const whole = await buildTerrain(catalog, opts({ detail: 'manifest' }));
    const p1 = await buildTerrain(catalog, opts({ detail: 'manifest', limit: 3 }));
    const p3 = await buildTerrain(catalog, opts({ detail: 'manifest', limit: 3, offset: 6 }));
    expect(p1).toMatchObject({ node_count: 3, truncated: true, next_offset: 3, total: 7 });
    expect(p3).toMatchObject({ node_count: 1, truncated: false, next_offset: null });
    expect([...p1.nodes, ...p3.nodes].map((n) => n.coordinates)).toEqual(
      [...whole.nodes.slice(0, 3), ...whole.nodes.slice(6)].map((n) => n.coordinates),
    );
    expect(p3.regions).toEqual(whole.regions);
    expect(p3.dependencies.map((e) => e.from_id)).toEqual(['repo:tools/cli']);
  });

  it('a repository whose folder leads outside the workspace is listed as outside and never read', async () => {
    const outside = createTempDir('hub-terrain-out-');
    try {
      mkdirSync(join(outside, 'x'));
      const ws2 = join(tmp, 'ws2');
      mkdirSync(join(ws2, 'p'), { recursive: true });
      symlinkSync(join(outside, 'x'), join(ws2, 'p', 'out'));
      const manifestPath = join(ws2, '.hub.yml');
      writeFileSync(
        manifestPath,
        'workspace:\n  projects:\n    - name: p\n      repos:\n        - name: out\n          path: ./p/out\n',
      );
      const c = new Catalog(readManifestFile(manifestPath));
      const t = await buildTerrain(c, opts({ checkouts: checkoutsOf(c) }));
      expect(byId(t.nodes)['p/out']).toMatchObject({
        local_status: 'outside_workspace',
        git: null,
        visual: { state: 'outside' },
      });
    } finally {
      removeTempDir(outside);
    }
  });
});

describe('activity cache', () => {
  it('reads each head once; the cached entry gives the same answer', async () => {
    const file = join(tmp, 'cache', 'terrain-activity.json');
    const dir = join(root, 'core', 'api');
    const head = (await runGit(['rev-parse', 'HEAD'], { cwd: dir })).stdout.trim();
    const cache = openActivityCache(file);
    const first = await activityEntries([{ root: dir, head }], cache, NOW);
    expect(first.read).toBe(1);
    expect(first.entries[0]).toMatchObject({ recent: [expect.any(Number)], capped: false });
    cache.save();
    expect(existsSync(file)).toBe(true);
    const second = await activityEntries([{ root: dir, head }], openActivityCache(file), NOW);
    expect(second).toEqual({ entries: first.entries, read: 0 });
  });
});
