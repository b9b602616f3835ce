// `component init --apply` writes a component path into the manifest. A path that leaves the repository through a
// symlink (`etclink/ssh` with etclink -> an outside folder) is refused before anything is written, on the CLI and
// over HTTP, so the manifest never holds a path `config validate` would then reject.
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';

let tmp: string;
let manifest: string;
let repo: string;
let server: RunningServer;

beforeAll(async () => {
  tmp = createTempDir('hub-init-trust-');
  mkdirSync(join(tmp, 'etc', 'ssh'), { recursive: true });
  const ws = buildWorkspace({
    root: join(tmp, 'ws'),
    projects: [{ name: 'p', repos: [{ name: 'r', files: { 'libs/core/index.ts': '' } }] }],
  });
  manifest = ws.manifestPath;
  repo = ws.repoDirs['p/r']!;
  symlinkSync(join(tmp, 'etc'), join(repo, 'etclink'));
  symlinkSync('/etc', join(repo, 'realetc'));
  symlinkSync(join(repo, 'libs'), join(repo, 'libs-link'));
  server = await startTestServer({ root: ws.root });
});
afterAll(async () => {
  await server?.close();
  removeTempDir(tmp);
});

const init = (path: string, name: string) =>
  runHub(['-c', manifest, 'component', 'init', path, '--name', name, '--apply', '--json']);

describe('component init --apply through a symlink out of the repository', () => {
  it.each([['etclink/ssh'], ['realetc'], ['etclink/not-yet']])(
    'the CLI refuses %s and leaves the manifest alone',
    (path) => {
      const before = readFileSync(manifest, 'utf8');
      const r = init(path, 'evil');
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.json().error).toMatchObject({
        code: 'validation',
        details: { field: 'path', value: path, rule: 'inside_repo' },
      });
      expect(r.json().error.message).toContain('symlink');
      expect(readFileSync(manifest, 'utf8')).toBe(before);
    },
  );

  it('the CLI refuses the absolute form too', () => {
    const r = init(join(repo, 'etclink', 'ssh'), 'evil-abs');
    expect(r.code).toBe(1);
    expect(r.json().error.details.rule).toBe('inside_repo');
  });

  it('HTTP refuses it with 400 and writes nothing', async () => {
    const before = readFileSync(manifest, 'utf8');
    const r = await call(server.base, 'POST', '/v3/ops/components/init', {
      body: { path: 'etclink/ssh', name: 'evil', apply: true },
    });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.details).toMatchObject({ field: 'path', rule: 'inside_repo' });
    expect(readFileSync(manifest, 'utf8')).toBe(before);
  });

  it('still applies a path inside, also one reached through an inside symlink', () => {
    const a = init('libs/core', 'core');
    expect(a.code, a.stdout).toBe(0);
    // A missing folder is refused (config validate would reject it); through the inside symlink it is created first.
    expect(init('libs-link/other', 'other').json().error.details.rule).toBe('missing_directory');
    mkdirSync(join(repo, 'libs-link', 'other'));
    const b = init('libs-link/other', 'other');
    expect(b.code, b.stdout).toBe(0);
    const v = runHub(['-c', manifest, 'config', 'validate', '--json']);
    expect(v.json().problems.map((p: { rule: string }) => p.rule)).not.toContain('path_escapes');
  });
});
