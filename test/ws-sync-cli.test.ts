import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, git, makeUpstream, pushCommit, removeTempDir } from './fixtures/index.js';
import { HUB_BIN, runHub } from './run-hub.js';

let root: string;

beforeAll(() => {
  root = createTempDir('hub-sync-cli-');
  const a = makeUpstream(root, 'a');
  const b = makeUpstream(root, 'b');
  const c = makeUpstream(root, 'c');
  git(root, ['clone', '-q', b.url, join(root, 'web', 'b')]);
  git(root, ['clone', '-q', c.url, join(root, 'web', 'c')]);
  pushCommit(b, 'new.txt');
  pushCommit(c, 'new.txt');
  writeFileSync(join(root, 'web', 'c', 'README.md'), 'my edit\n');
  writeFileSync(
    join(root, '.hub.yml'),
    [
      'workspace:',
      '  name: t',
      '  projects:',
      '    - name: web',
      '      repos:',
      `        - {name: a, url: "${a.url}"}`,
      `        - {name: b, url: "${b.url}"}`,
      `        - {name: c, url: "${c.url}"}`,
      '    - name: other',
      '      repos:',
      '        - {name: z, url: "ext::sh -c false"}',
      '',
    ].join('\n'),
  );
});

afterAll(() => removeTempDir(root));

describe('hub project sync (built CLI)', () => {
  it('dry run of one project prints what it would do and changes nothing', () => {
    const r = runHub(['project', 'sync', '--project', 'web', '--dry-run', '--json'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const j = r.json();
    expect(j.dry_run).toBe(true);
    expect(j.project).toBe('web');
    expect(j.repos.map((x: { id: string; action: string }) => `${x.id} ${x.action}`)).toEqual([
      'web/a would_clone',
      'web/b would_fetch',
      'web/c skipped',
    ]);
  });

  it('syncs, prints a summary with plain progress lines off a terminal, and exits 1 when a repository failed', () => {
    const r = runHub(['project', 'sync', '--concurrency', '2'], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^cloned\s+web\/a$/m);
    expect(r.stdout).toMatch(/^updated\s+web\/b {2}[0-9a-f]+\.\.[0-9a-f]+$/m);
    expect(r.stdout).toMatch(/^skipped\s+web\/c {2}dirty: 1 changed or untracked path/m);
    expect(r.stdout).toMatch(/^failed\s+other\/z {2}git_url_transport: /m);
    expect(r.stdout).toMatch(/sync: 1 cloned, 1 updated, 0 unchanged, 1 skipped, 1 failed of 4 repositories/);
    // One plain line per repository on stderr, none on stdout.
    expect(r.stderr.split('\n').filter((l) => /^sync \d\/4 /.test(l))).toHaveLength(4);
    expect(readFileSync(join(root, 'web', 'c', 'README.md'), 'utf8')).toBe('my edit\n');
  });

  it('accepts project_name as the spec names it, and refuses two different names', () => {
    const same = runHub(['project', 'sync', '--project-name', 'web', '--json'], { cwd: root });
    expect(same.code, same.stderr).toBe(0);
    expect(same.json().counts).toMatchObject({ unchanged: 2, skipped: 1 });
    const clash = runHub(['project', 'sync', '--project', 'web', '--project-name', 'other', '--json'], {
      cwd: root,
    });
    expect(clash.code).toBe(1);
    expect(clash.json().error.details).toMatchObject({ field: 'project_name', rule: 'same_as_project' });
  });

  it('bounds concurrency: more than 32 git processes at once is refused, naming the field', () => {
    const r = runHub(['project', 'sync', '--dry-run', '--concurrency', '33', '--json'], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.json().error.details.issues).toMatchObject([{ field: 'concurrency', rule: 'too_big' }]);
  });

  it('draws a bar on a terminal instead of lines', () => {
    const dir = createTempDir('hub-sync-tty-');
    try {
      const up = makeUpstream(dir, 'up');
      const lines = ['workspace:', '  projects:', '    - name: p', '      repos:'];
      for (let i = 0; i < 20; i++) {
        git(dir, ['clone', '-q', up.url, join(dir, 'p', `r${i}`)]);
        lines.push(`        - {name: r${i}, path: ./p/r${i}}`);
      }
      writeFileSync(join(dir, '.hub.yml'), `${lines.join('\n')}\n`);
      // script(1) gives the command a pseudo-terminal, as a person's shell would.
      const cmd = `${process.execPath} ${HUB_BIN} project sync --concurrency 1`;
      const r = spawnSync('script', ['-qec', cmd, '/dev/null'], {
        cwd: dir,
        env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.stdout).toMatch(/sync: 0 cloned, 0 updated, 20 unchanged, 0 skipped, 0 failed of 20/);
      // Redrawn in place (carriage control, a bar and a count), never a line per repository.
      expect(r.stdout).toContain(`${String.fromCharCode(27)}[1Gsync [`);
      expect(r.stdout).toMatch(/sync \[[^\]]+\] \d+\/20 /);
      expect(r.stdout).not.toMatch(/^sync \d+\/20 /m);
    } finally {
      removeTempDir(dir);
    }
  });
});
