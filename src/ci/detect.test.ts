import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as F from '../../test/fixtures/ci-files.js';
import { createTempDir, makeGitRepo, removeTempDir } from '../../test/fixtures/index.js';
import { ciFiles, detectCi, suggestedCi } from './index.js';

const dirs: string[] = [];
const repo = (files: Record<string, string>) => {
  const d = createTempDir('hub-ci-');
  dirs.push(d);
  return makeGitRepo(join(d, 'r'), files);
};
afterAll(() => dirs.forEach(removeTempDir));

const byProvider = (root: string) =>
  Object.fromEntries(detectCi(root).providers.map((p) => [p.provider, p.files]));

describe('CI detection on real checkouts', () => {
  it('finds each system by its documented file and names its workflows, jobs and stages', () => {
    const root = repo({
      'README.md': '# x\n',
      '.github/workflows/ci.yml': F.GITHUB_CI,
      '.github/workflows/release.yaml': F.GITHUB_RELEASE,
      '.github/workflows/notes.txt': 'not a workflow',
      '.gitlab-ci.yml': F.GITLAB_CI,
      '.circleci/config.yml': F.CIRCLECI,
      'azure-pipelines.yml': F.AZURE,
      Jenkinsfile: F.JENKINSFILE,
      '.buildkite/pipeline.yml': F.BUILDKITE,
      'bitbucket-pipelines.yml': F.BITBUCKET,
      '.drone.yml': F.DRONE,
      '.travis.yml': F.TRAVIS,
    });
    const d = byProvider(root);
    expect(Object.keys(d)).toEqual([
      'github_actions',
      'gitlab_ci',
      'circleci',
      'azure_pipelines',
      'jenkins',
      'buildkite',
      'travis',
      'bitbucket_pipelines',
      'drone',
    ]);
    const [ci, release] = d.github_actions!;
    expect(ci).toMatchObject({
      path: '.github/workflows/ci.yml',
      name: 'CI',
      workflows: ['CI'],
      jobs: ['lint', 'test'],
      triggers: ['push', 'pull_request', 'workflow_dispatch'],
    });
    expect(release).toMatchObject({
      name: null,
      workflows: ['release.yaml'],
      jobs: ['publish'],
      triggers: ['release'],
    });
    expect(d.gitlab_ci![0]).toMatchObject({
      jobs: ['build', 'unit-tests', 'pages'],
      stages: ['build', 'test', 'deploy'],
      includes: ['ci/templates.yml', 'platform/ci-templates', 'Security/SAST.gitlab-ci.yml'],
      triggers: ['workflow:rules'],
    });
    expect(d.circleci![0]).toMatchObject({
      workflows: ['build-and-deploy'],
      jobs: ['build', 'deploy', 'node/test'],
      includes: ['circleci/node@5.2.0'],
    });
    expect(d.azure_pipelines![0]).toMatchObject({
      stages: ['Build', 'Deploy'],
      jobs: ['Compile', 'DeployWeb'],
      includes: ['templates/test-jobs.yml'],
      triggers: ['trigger'],
    });
    expect(d.jenkins![0]).toMatchObject({
      style: 'declarative',
      stages: ['Checkout', 'Build & Test', 'Publish'],
      triggers: ['cron'],
    });
    expect(d.buildkite![0]).toMatchObject({
      jobs: [':hammer: Build', 'Unit', 'make integration', ':rocket: Deploy'],
      stages: [':test_tube: Tests'],
    });
    expect(d.bitbucket_pipelines![0]).toMatchObject({
      workflows: ['default', 'branches:main', 'custom:deploy-prod'],
      jobs: ['Build and test', 'Lint', 'Audit', 'Deploy'],
    });
    expect(d.drone![0]).toMatchObject({
      workflows: ['default', 'release'],
      jobs: ['test', 'publish'],
      triggers: ['push', 'pull_request'],
    });
    expect(d.travis![0]).toMatchObject({ stages: ['test', 'deploy'], jobs: ['unit', 'pypi'] });
  });

  it('a checkout without CI files has none, and nothing past the root is listed', () => {
    const root = repo({ 'README.md': '# x\n', 'src/a.ts': 'x' });
    expect(ciFiles(root)).toEqual([]);
    expect(suggestedCi(detectCi(root))).toBeNull();
  });

  it('broken and oversized files are listed with an error instead of failing the detection', () => {
    const root = repo({
      '.gitlab-ci.yml': 'stages: [build\n  oops: :\n',
      'azure-pipelines.yml': `steps:\n  - script: ${'x'.repeat(600 * 1024)}\n`,
    });
    const d = byProvider(root);
    expect(d.gitlab_ci![0]!.error).toMatch(/^not parsed: /);
    expect(d.azure_pipelines![0]!.error).toMatch(/larger than the limit of 524288 bytes \(rule max_size\)/);
  });

  it('a billion-laughs file stops at the alias limit', () => {
    const lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      lol.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const root = repo({ '.gitlab-ci.yml': `${lol.join('\n')}\n` });
    expect(byProvider(root).gitlab_ci![0]!.error).toMatch(/not parsed: .*alias/i);
  });

  it('a file nested 100,000 deep is listed with the nesting limit, never parsed (issue 25)', () => {
    const n = 100_000;
    const root = repo({ '.gitlab-ci.yml': `stages: [build]\njob: ${'['.repeat(n)}${']'.repeat(n)}\n` });
    expect(byProvider(root).gitlab_ci![0]!.error).toBe(
      'not parsed: nests deeper than the limit of 128 levels at line 2 (max_depth)',
    );
  });

  it('never reads through a symbolic link out of the repository, nor lists a linked folder', () => {
    const outside = createTempDir('hub-ci-out-');
    dirs.push(outside);
    mkdirSync(join(outside, 'workflows'), { recursive: true });
    writeFileSync(join(outside, 'workflows', 'secret.yml'), 'name: SECRET\njobs: {leak: {}}\n');
    writeFileSync(join(outside, 'gitlab.yml'), 'leak:\n  script: [x]\n');
    const root = repo({ 'README.md': '# x\n' });
    symlinkSync(outside, join(root, '.github'));
    symlinkSync(join(outside, 'gitlab.yml'), join(root, '.gitlab-ci.yml'));
    const d = byProvider(root);
    expect(d.github_actions).toBeUndefined();
    expect(d.gitlab_ci![0]).toMatchObject({ jobs: [], error: expect.stringMatching(/rule inside_root/) });
  });

  it('suggests the main GitHub workflow, else the first file of the first system', () => {
    const gh = repo({
      '.github/workflows/a-lint.yml': F.GITHUB_RELEASE,
      '.github/workflows/ci.yml': F.GITHUB_CI,
    });
    expect(suggestedCi(detectCi(gh))).toEqual({
      provider: 'github_actions',
      workflow: '.github/workflows/ci.yml',
    });
    const gl = repo({ '.gitlab-ci.yml': F.GITLAB_CI, Jenkinsfile: F.JENKINSFILE });
    expect(suggestedCi(detectCi(gl))).toEqual({ provider: 'gitlab_ci', pipeline: '.gitlab-ci.yml' });
  });
});
