import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import * as CI from './fixtures/ci-files.js';
import { createTempDir, makeGitRepo, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;
let manifest: string;

const MANIFEST = `# CI targets of the build team
workspace:
  name: ci-test
  projects:
    - name: build
      repos:
        # the API; ci below is kept in flow style
        - name: api
          path: ./build/api
          ci: { provider: github_actions, workflow: .github/workflows/old.yml } # was renamed
          tags: { team: build }
        - name: tools # no ci yet
          path: ./build/tools
        - name: infra
          path: ./build/infra
          ci: jenkins # jenkins only
        - name: docs
          path: ./build/docs
`;

beforeAll(() => {
  dir = createTempDir('hub-ci-cli-');
  root = join(dir, 'ws');
  makeGitRepo(join(root, 'build', 'api'), {
    '.github/workflows/ci.yml': CI.GITHUB_CI,
    '.github/workflows/release.yml': CI.GITHUB_RELEASE,
  });
  makeGitRepo(join(root, 'build', 'tools'), {
    '.gitlab-ci.yml': CI.GITLAB_CI,
    'azure-pipelines.yml': CI.AZURE,
  });
  makeGitRepo(join(root, 'build', 'infra'), {
    Jenkinsfile: CI.JENKINSFILE,
    '.buildkite/pipeline.yml': CI.BUILDKITE,
  });
  makeGitRepo(join(root, 'build', 'docs'), { 'README.md': '# docs\n' });
  manifest = join(root, '.hub.yml');
  writeFileSync(manifest, MANIFEST);
});
afterAll(() => removeTempDir(dir));

const hub = (args: string[]) => runHub(args, { cwd: root });
/** Lines of `after` that differ from `before` (same line count assumed by the caller). */
const changedLines = (before: string, after: string) => {
  const a = before.split('\n');
  const b = after.split('\n');
  return b.filter((line, i) => line !== a[i]);
};

describe('project repo ci detect and show', () => {
  it('detects every checkout and says whether the declared target is among the files', () => {
    const r = hub(['project', 'repo', 'ci', 'detect', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = Object.fromEntries(r.json().repos.map((x: { repository: string }) => [x.repository, x]));
    expect(rows['build/api'].providers.map((p: { provider: string }) => p.provider)).toEqual([
      'github_actions',
    ]);
    expect(rows['build/api'].declared_found).toBe(false);
    expect(rows['build/api'].suggested).toEqual({
      provider: 'github_actions',
      workflow: '.github/workflows/ci.yml',
    });
    expect(rows['build/tools'].providers.map((p: { provider: string }) => p.provider)).toEqual([
      'gitlab_ci',
      'azure_pipelines',
    ]);
    expect(rows['build/tools'].declared_found).toBeNull();
    expect(rows['build/infra'].declared_found).toBe(true);
    expect(rows['build/infra'].providers[0].files[0].stages).toEqual(['Checkout', 'Build & Test', 'Publish']);
    expect(rows['build/docs'].providers).toEqual([]);
    expect(hub(['project', 'repo', 'ci', 'detect', '-p', 'build', '-n', 'infra']).stdout).toMatch(
      /build\/infra\s+jenkins\s+Jenkinsfile\s+stages: Checkout, Build & Test, Publish/,
    );
  });

  it('show reads the manifest and names a declared file missing from the checkout', () => {
    const r = hub(['project', 'repo', 'ci', 'show', '-p', 'build', '-n', 'api', '--json']);
    expect(r.json()).toEqual({
      repository: 'build/api',
      present: true,
      declared: { provider: 'github_actions', workflow: '.github/workflows/old.yml' },
      config_path: '.github/workflows/old.yml',
      config_exists: false,
    });
    expect(hub(['project', 'repo', 'ci', 'show', '-p', 'build', '-n', 'tools']).stdout).toMatch(
      /no ci recorded/,
    );
    const miss = hub(['project', 'repo', 'ci', 'show', '-p', 'build', '-n', 'tool', '--json']);
    expect(miss.code).toBe(1);
    expect(miss.json().error).toMatchObject({ code: 'not_found', details: { rule: 'unknown_repository' } });
    expect(miss.json().error.message).toContain("'tools'");
  });
});

describe('project repo ci set keeps every other line of the manifest', () => {
  it('edits a flow map in place, keeping its comment and style', () => {
    const before = readFileSync(manifest, 'utf8');
    const r = hub(['project', 'repo', 'ci', 'set', '-p', 'build', '-n', 'api', '--detected', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json()).toMatchObject({
      changed: true,
      ci: { provider: 'github_actions', workflow: '.github/workflows/ci.yml' },
      previous: { provider: 'github_actions', workflow: '.github/workflows/old.yml' },
      warnings: [],
    });
    const after = readFileSync(manifest, 'utf8');
    expect(changedLines(before, after)).toEqual([
      '          ci: { provider: github_actions, workflow: .github/workflows/ci.yml } # was renamed',
    ]);
    // Again: the manifest already says so, nothing is written.
    const again = hub(['project', 'repo', 'ci', 'set', '-p', 'build', '-n', 'api', '--detected', '--json']);
    expect(again.json().changed).toBe(false);
    expect(readFileSync(manifest, 'utf8')).toBe(after);
  });

  it('adds a block map where there was none, and turns the short form into a map', () => {
    const before = readFileSync(manifest, 'utf8');
    const r = hub([
      'project',
      'repo',
      'ci',
      'set',
      '-p',
      'build',
      '-n',
      'tools',
      '--provider',
      'gitlab_ci',
      '--pipeline',
      './.gitlab-ci.yml',
      '--url',
      'https://gitlab.example.com/build/tools/-/pipelines',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const after = readFileSync(manifest, 'utf8');
    expect(after).toContain(
      '        - name: tools # no ci yet\n          path: ./build/tools\n          ci:\n            provider: gitlab_ci\n            pipeline: .gitlab-ci.yml\n            url: https://gitlab.example.com/build/tools/-/pipelines\n',
    );
    expect(after.replace(/\n {10}ci:\n {12}provider: gitlab_ci\n.*\n.*\n/, '\n')).toBe(before);
    const infra = hub([
      'project',
      'repo',
      'ci',
      'set',
      '-p',
      'build',
      '-n',
      'infra',
      '--provider',
      'buildkite',
      '--pipeline',
      '.buildkite/pipeline.yml',
    ]);
    expect(infra.code, infra.stderr).toBe(0);
    expect(readFileSync(manifest, 'utf8')).toContain(
      '          ci: # jenkins only\n            provider: buildkite\n            pipeline: .buildkite/pipeline.yml\n        - name: docs',
    );
    expect(hub(['config', 'validate']).code).toBe(0);
  });

  it('records a file that is not there with a warning, and --clear removes only the ci lines', () => {
    const r = hub([
      'project',
      'repo',
      'ci',
      'set',
      '-p',
      'build',
      '-n',
      'docs',
      '--provider',
      'circleci',
      '--pipeline',
      '.circleci/config.yml',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/warning: \.circleci\/config\.yml is not a file in the checkout of build\/docs/);
    const before = readFileSync(manifest, 'utf8');
    expect(hub(['project', 'repo', 'ci', 'set', '-p', 'build', '-n', 'docs', '--clear']).code).toBe(0);
    expect(readFileSync(manifest, 'utf8')).toBe(
      before.replace(
        '          ci:\n            provider: circleci\n            pipeline: .circleci/config.yml\n',
        '',
      ),
    );
  });

  it('refuses what it cannot record, naming the field and rule, and writes nothing', () => {
    const before = readFileSync(manifest, 'utf8');
    const cases: Array<[string[], Record<string, unknown>]> = [
      [
        ['--provider', 'github-actions'],
        { field: 'provider', value: 'github-actions', rule: 'known_provider' },
      ],
      [
        ['--provider', 'gitlab_ci', '--pipeline', '../other/.gitlab-ci.yml'],
        { field: 'pipeline', rule: 'inside_repository' },
      ],
      [
        ['--provider', 'gitlab_ci', '--url', 'https://user:s3cret@ci.example.com/x'],
        { field: 'url', rule: 'http_url' },
      ],
      [['--provider', 'gitlab_ci', '--url', 'javascript:alert(1)'], { field: 'url', rule: 'http_url' }],
      [['--provider', 'gitlab_ci', '--clear'], { rule: 'one_source' }],
      [['--workflow', 'x.yml'], { rule: 'one_source' }],
      [['--detected', '--url', 'https://x.example'], { rule: 'needs_provider' }],
    ];
    for (const [args, details] of cases) {
      const r = hub(['project', 'repo', 'ci', 'set', '-p', 'build', '-n', 'api', ...args, '--json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.json().error.details, args.join(' ')).toMatchObject(details);
      expect(r.stdout).not.toContain('s3cret');
    }
    const none = hub(['project', 'repo', 'ci', 'set', '-p', 'build', '-n', 'docs', '--detected', '--json']);
    expect(none.json().error.details).toMatchObject({ field: 'detected', rule: 'nothing_detected' });
    expect(readFileSync(manifest, 'utf8')).toBe(before);
  });

  it('refuses an application manifest, which has no repos entry to hold ci', () => {
    const app = join(dir, 'app');
    makeGitRepo(app, { '.gitlab-ci.yml': CI.GITLAB_CI, 'src/main.ts': 'x' });
    writeFileSync(join(app, '.hub.yml'), 'name: app\npaths:\n  - path: src\n');
    const r = runHub(['project', 'repo', 'ci', 'set', '-p', 'app', '-n', 'app', '--detected', '--json'], {
      cwd: app,
    });
    expect(r.json().error).toMatchObject({ code: 'refused', details: { rule: 'application_manifest' } });
  });
});

describe('on the demo workspace', () => {
  it('the declared targets are the detected ones', () => {
    const demo = createDemo(join(dir, 'demo'));
    const r = runHub(['project', 'repo', 'ci', 'detect', '--json'], { cwd: demo.root });
    const found = Object.fromEntries(
      r
        .json()
        .repos.map((x: { repository: string; declared_found: boolean | null }) => [
          x.repository,
          x.declared_found,
        ]),
    );
    expect(found).toEqual({
      'platform/identity': true,
      'platform/gateway': false,
      'platform/cloud-infra': true,
      'platform/legacy-billing': null,
      'storefront/web': true,
      'storefront/catalog': null,
    });
  });
});
