// A manifest is shared and cloned, reviewed by nobody: a repository whose real path lies outside the manifest's
// folder (`path: /etc`, `../../etc`, a repo folder that is a symlink out, a url-only checkout under a symlinked
// project folder) is reported by `config validate`, and every reader refuses or skips it, unless the user's own
// config (or HUB_ALLOWED_OUTSIDE_PATHS) allows that folder. A workspace hub.config.yaml cannot allow it.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, makeGitRepo, removeTempDir, writeManifest } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';

const SECRET = 'OUTSIDE-SECRET-77';
let tmp: string;
let root: string;
let outside: string;
let userAllows: string;
let userPlain: string;
let manifestText: string;
let server: RunningServer;

const OUTSIDE_IDS = ['p/abs', 'p/up', 'p/linked', 'p/etc', 'p/etcup', 'q/u'];

beforeAll(async () => {
  tmp = createTempDir('hub-outside-');
  root = join(tmp, 'ws');
  outside = join(tmp, 'outside');
  makeGitRepo(outside, {
    'secret.conf': `${SECRET}=1\n`,
    'package.json': '{"name":"outside"}\n',
    'pkg/go.mod': 'module x\n',
  });
  makeGitRepo(join(tmp, 'outside2', 'u'), { 'secret.conf': `${SECRET}=2\n` });
  makeGitRepo(join(root, 'p', 'ok'), { 'ok.conf': 'INSIDE-MARK\n' });
  symlinkSync(outside, join(root, 'p', 'linked'));
  symlinkSync(join(tmp, 'outside2'), join(root, 'q'));
  manifestText = `workspace:
  name: w
  projects:
    - name: p
      repos:
        - name: ok
          path: ./p/ok
        - name: abs
          path: ${outside}
        - name: up
          path: ../outside
        - name: linked
          path: ./p/linked
        - name: etc
          path: /etc
        - name: etcup
          path: ../../../../../../../../../../etc
    - name: q
      repos:
        - name: u
          url: https://example.com/u.git
`;
  writeManifest(root, manifestText);
  userPlain = join(tmp, 'user-plain');
  mkdirSync(userPlain);
  userAllows = join(tmp, 'user-allows');
  mkdirSync(userAllows);
  writeFileSync(
    join(userAllows, 'config.yml'),
    `workspace:\n  allowed_outside_paths: [${outside}, ${join(tmp, 'outside2')}]\n`,
  );
  server = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', HUB_CONFIG_DIR: userPlain } });
});
afterAll(async () => {
  await server?.close();
  removeTempDir(tmp);
});

const hub = (args: string[], env: Record<string, string> = {}) =>
  runHub(['-c', join(root, '.hub.yml'), ...args, '--json'], {
    cwd: root,
    env: { HUB_CONFIG_DIR: userPlain, ...env },
  });
const lineOf = (needle: string) => manifestText.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('config validate', () => {
  it('reports every repository outside the workspace with its YAML path and line', () => {
    const r = hub(['config', 'validate']);
    expect(r.code).toBe(1);
    const found = r
      .json()
      .problems.filter((p: { rule: string }) => p.rule === 'repo_outside_workspace')
      .map((p: { path: string; line: number }) => [p.path, p.line]);
    expect(found).toEqual([
      ['workspace.projects[0].repos[1].path', lineOf(`path: ${outside}`)],
      ['workspace.projects[0].repos[2].path', lineOf('path: ../outside')],
      ['workspace.projects[0].repos[3].path', lineOf('path: ./p/linked')],
      ['workspace.projects[0].repos[4].path', lineOf('path: /etc')],
      ['workspace.projects[0].repos[5].path', lineOf('path: ../../../')],
      ['workspace.projects[1].repos[0].url', lineOf('url: https://example.com/u.git')],
    ]);
    expect(
      r.json().problems.find((p: { path: string }) => p.path.endsWith('repos[3].path')).message,
    ).toContain(outside);
  });

  it('accepts the folders the user config allows, and only those', () => {
    const r = hub(['config', 'validate'], { HUB_CONFIG_DIR: userAllows });
    const ids = r
      .json()
      .problems.filter((p: { rule: string }) => p.rule === 'repo_outside_workspace')
      .map((p: { path: string }) => p.path);
    expect(ids).toEqual(['workspace.projects[0].repos[4].path', 'workspace.projects[0].repos[5].path']);
    const env = hub(['config', 'validate'], {
      HUB_ALLOWED_OUTSIDE_PATHS: `${outside}:${join(tmp, 'outside2')}:/etc`,
    });
    expect(env.json().problems.filter((p: { rule: string }) => p.rule === 'repo_outside_workspace')).toEqual(
      [],
    );
  });
});

describe('readers refuse or skip a repository outside the workspace', () => {
  it.each(['abs', 'up', 'linked'])('context repomix refuses p/%s', (repo) => {
    const r = hub(['context', 'repomix', '--profile', 'config-edit', '--project', 'p', '--repo', repo]);
    expect(r.code, r.stdout).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'refused',
      details: { repository: `p/${repo}`, rule: 'repo_outside_workspace' },
    });
    expect(r.stdout).not.toContain(SECRET);
  });

  it('context repomix over HTTP answers 403', async () => {
    const r = await call(
      server.base,
      'GET',
      '/v3/ops/context/repomix?profile=config-edit&project=p&repo=linked',
    );
    expect(r.status, r.text).toBe(403);
    expect(r.text).not.toContain(SECRET);
  });

  it('workspace grep skips them, lists them as refused, and refuses one named with --repo', () => {
    const r = hub(['workspace', 'grep', SECRET]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json().matches).toEqual([]);
    expect(r.json().repos_refused).toEqual(OUTSIDE_IDS);
    const inside = hub(['workspace', 'grep', 'INSIDE-MARK']);
    expect(inside.json().matches.map((m: { repository: string }) => m.repository)).toEqual(['p/ok']);
    const one = hub(['workspace', 'grep', SECRET, '--project', 'p', '--repo', 'linked']);
    expect(one.code).toBe(1);
    expect(one.json().error.details.rule).toBe('repo_outside_workspace');
  });

  it('workspace grep over HTTP does not print outside files', async () => {
    const r = await call(server.base, 'GET', `/v2/workspace/grep?q=${SECRET}`);
    expect(r.status).toBe(200);
    expect(r.text).not.toContain(`${SECRET}=`);
  });

  it('repo open refuses them on the CLI and over HTTP', async () => {
    for (const path of [outside, join(root, 'p', 'linked')]) {
      const r = hub(['repo', 'open', path]);
      expect(r.code, path).toBe(1);
      expect(r.json().error.details.rule).toBe('repo_outside_workspace');
      const h = await call(server.base, 'POST', '/v3/ops/open', { body: { path } });
      expect(h.status).toBe(403);
      expect(h.json.error.details.rule).toBe('repo_outside_workspace');
    }
  });

  it('repo cards and health show them as outside, read nothing from them', () => {
    const card = hub(['context', 'repo-card', '--project', 'p', '--repo', 'linked']);
    expect(card.code, card.stdout).toBe(0);
    expect(card.json()).toMatchObject({ exists: false, status: 'missing' });
    expect(card.json().error).toContain('outside the workspace');
    expect(JSON.stringify(card.json().stack_hints)).not.toContain('node');
    const health = hub(['workspace', 'health', '--no-git']);
    const outsideFindings = health
      .json()
      .findings.filter((f: { code: string }) => f.code === 'repo_outside_workspace')
      .map((f: { repository: string }) => f.repository);
    expect(outsideFindings.sort()).toEqual([...OUTSIDE_IDS].sort());
  });

  it('component detect finds nothing in them and refuses one named with --repo', () => {
    const all = hub(['component', 'detect']);
    expect(all.code, all.stdout).toBe(0);
    expect(all.json().candidates.map((c: { repo: string }) => c.repo)).not.toContain('abs');
    const one = hub(['component', 'detect', '--project', 'p', '--repo', 'abs']);
    expect(one.code).toBe(1);
    expect(one.json().error.details.rule).toBe('repo_outside_workspace');
  });

  it('workspace repo list shows them as not present', () => {
    const r = hub(['workspace', 'repo', 'list']);
    const rows = Object.fromEntries(
      r.json().repos.map((x: { id: string; exists: boolean }) => [x.id, x.exists]),
    );
    expect(rows).toMatchObject({ 'p/ok': true, 'p/abs': false, 'p/linked': false, 'p/etc': false });
  });
});

describe('allowed by the user', () => {
  it('the user config lets repomix and grep read the folders it names', () => {
    const mix = hub(
      ['context', 'repomix', '--profile', 'config-edit', '--project', 'p', '--repo', 'linked'],
      {
        HUB_CONFIG_DIR: userAllows,
      },
    );
    expect(mix.code, mix.stdout).toBe(0);
    expect(mix.json().text).toContain(SECRET);
    const grep = hub(['workspace', 'grep', SECRET], { HUB_CONFIG_DIR: userAllows });
    expect(
      grep
        .json()
        .matches.map((m: { repository: string }) => m.repository)
        .sort(),
    ).toEqual(['p/abs', 'p/linked', 'p/up', 'q/u']);
    expect(grep.json().repos_refused).toEqual(['p/etc', 'p/etcup']);
  });

  it('HUB_ALLOWED_OUTSIDE_PATHS does the same', () => {
    const mix = hub(['context', 'repomix', '--profile', 'config-edit', '--project', 'p', '--repo', 'abs'], {
      HUB_ALLOWED_OUTSIDE_PATHS: outside,
    });
    expect(mix.code, mix.stdout).toBe(0);
    expect(mix.json().text).toContain(SECRET);
  });

  it('a workspace hub.config.yaml cannot allow them', () => {
    const ws = createTempDir('hub-outside-ws-');
    try {
      writeManifest(
        ws,
        `workspace:\n  name: w\n  projects:\n    - name: p\n      repos:\n        - name: abs\n          path: ${outside}\n`,
      );
      writeFileSync(join(ws, 'hub.config.yaml'), `workspace:\n  allowed_outside_paths: [${outside}]\n`);
      const r = runHub(['-c', join(ws, '.hub.yml'), 'workspace', 'grep', SECRET, '--json'], {
        cwd: ws,
        env: { HUB_CONFIG_DIR: userPlain },
      });
      expect(r.code).toBe(1);
      expect(r.stdout).not.toContain(`${SECRET}=`);
      expect(r.json().error.details.rule).toBe('workspace_config_trusted_key');
    } finally {
      removeTempDir(ws);
    }
  });
});
