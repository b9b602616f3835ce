// catalog add and --ensure on a real manifest through the built CLI and a real server: a matching entry is a
// success with operation noop (spec: Limits), a differing one is refused naming the field, and every line the add
// does not touch keeps its bytes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffLines } from 'diff';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, makeGitRepo, removeTempDir } from './fixtures/index.js';
import { call, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';

const MANIFEST = `# hand-written
workspace:
  projects:
    - name: core   # main
      repos:
        - {name: api, path: ./core/api}
        - name: web
          url: https://example.com/web.git   # not cloned
`;

let dir: string;
let ws: string;
let manifest: string;
beforeAll(() => {
  dir = createTempDir('hub-catalog-add-');
  ws = join(dir, 'ws');
  makeGitRepo(join(ws, 'core', 'api'), { 'a.txt': 'a\n' });
  makeGitRepo(join(ws, 'core', 'lib'), { 'b.txt': 'b\n' });
  mkdirSync(join(dir, 'outside'));
  manifest = join(ws, '.hub.yml');
});
afterAll(() => removeTempDir(dir));
beforeEach(() => writeFileSync(manifest, MANIFEST));

const hub = (args: string[], env: Record<string, string> = {}) =>
  runHub(['catalog', 'add', ...args, '--json'], { cwd: ws, env });

describe('catalog add', () => {
  it('adds a repo by path and a project, changing only the lines it adds', () => {
    const r = hub(['--project', 'core', '--repo', 'lib', '--path', './core/lib']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json()).toEqual({
      ok: true,
      operation: 'created',
      entity: 'repo',
      project: 'core',
      repo: 'lib',
    });
    const p = hub(['--project', 'tools', '--description', 'Tooling']);
    expect(p.json()).toMatchObject({ operation: 'created', entity: 'project' });
    const after = readFileSync(manifest, 'utf8');
    expect(diffLines(MANIFEST, after).filter((d) => d.removed)).toEqual([]);
    expect(after).toContain(
      '          url: https://example.com/web.git   # not cloned\n        - name: lib\n          path: ./core/lib\n',
    );
    expect(after.endsWith('    - name: tools\n      description: Tooling\n      repos: []\n')).toBe(true);
    expect(runHub(['config', 'validate'], { cwd: ws }).code).toBe(0);
  });

  it('refuses an entry that exists without --ensure', () => {
    const r = hub(['--project', 'core', '--repo', 'web', '--url', 'https://example.com/web.git']);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({ code: 'refused', details: { rule: 'already_exists' } });
  });

  it('--ensure: a repo with the matching url or path is a success with operation noop, file untouched', () => {
    const byUrl = hub([
      '--project',
      'core',
      '--repo',
      'web',
      '--url',
      'https://example.com/web.git/',
      '--ensure',
    ]);
    expect(byUrl.code, byUrl.stdout).toBe(0);
    expect(byUrl.json()).toEqual({
      ok: true,
      operation: 'noop',
      entity: 'repo',
      project: 'core',
      repo: 'web',
    });
    const byPath = hub(['--project', 'core', '--repo', 'api', '--path', 'core/api', '--ensure']);
    expect(byPath.json().operation).toBe('noop');
    const project = hub(['--project', 'core', '--ensure']);
    expect(project.json()).toMatchObject({ operation: 'noop', entity: 'project' });
    const human = runHub(
      ['catalog', 'add', '--project', 'core', '--repo', 'api', '--path', './core/api', '--ensure'],
      {
        cwd: ws,
      },
    );
    expect(human.stdout.trim()).toBe('repo unchanged (ensure): core/api');
    expect(readFileSync(manifest, 'utf8')).toBe(MANIFEST);
  });

  it('--ensure: a differing url, path or description is refused naming the field', () => {
    const url = hub([
      '--project',
      'core',
      '--repo',
      'web',
      '--url',
      'https://example.com/other.git',
      '--ensure',
    ]);
    expect(url.code).toBe(1);
    expect(url.json().error.details).toMatchObject({
      field: 'url',
      rule: 'ensure_conflict',
      existing: 'https://example.com/web.git',
    });
    const path = hub(['--project', 'core', '--repo', 'api', '--path', './core/lib', '--ensure']);
    expect(path.json().error.details).toMatchObject({ field: 'path', rule: 'ensure_conflict' });
    const desc = hub(['--project', 'core', '--description', 'other', '--ensure']);
    expect(desc.json().error.details).toMatchObject({ field: 'description', rule: 'ensure_conflict' });
    expect(readFileSync(manifest, 'utf8')).toBe(MANIFEST);
  });

  it('implies --ensure in agent mode', () => {
    const r = hub(['--project', 'core', '--repo', 'api', '--path', './core/api'], { HUB_AGENT_MODE: 'true' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json().operation).toBe('noop');
  });

  it('refuses a repo without exactly one locator, in a missing project, already present, or outside the workspace', () => {
    expect(hub(['--project', 'core', '--repo', 'x']).json().error.details).toMatchObject({
      rule: 'repo_locator',
    });
    expect(
      hub(['--project', 'core', '--repo', 'x', '--path', 'a', '--url', 'https://e/x']).json().error.details,
    ).toMatchObject({ rule: 'repo_locator' });
    expect(hub(['--project', 'cor', '--repo', 'x', '--path', 'x']).json().error.details).toMatchObject({
      rule: 'project_not_found',
      suggestions: ['core'],
    });
    expect(
      hub(['--project', 'core', '--repo', 'api2', '--path', './core/api/']).json().error.details,
    ).toMatchObject({ rule: 'duplicate_identity', existing: 'core/api' });
    const outside = hub(['--project', 'core', '--repo', 'far', '--path', '../outside']);
    expect(outside.code).toBe(1);
    expect(outside.json().error.details.rule).toBe('repo_outside_workspace');
    expect(readFileSync(manifest, 'utf8')).toBe(MANIFEST);
  });

  it('answers alike over HTTP', async () => {
    const srv = await startTestServer({ root: ws });
    try {
      const body = { project: 'core', repo: 'web', url: 'https://example.com/web.git', ensure: true };
      const r = await call(srv.base, 'POST', '/v3/ops/catalog', { body });
      expect(r.status, r.text).toBe(200);
      expect(r.json).toEqual(
        hub(['--project', 'core', '--repo', 'web', '--url', body.url, '--ensure']).json(),
      );
      const conflict = await call(srv.base, 'POST', '/v3/ops/catalog', { body: { ...body, ensure: false } });
      expect(conflict.status).toBe(409);
    } finally {
      await srv.close();
    }
  });
});
