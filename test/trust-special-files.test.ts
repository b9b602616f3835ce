// Files a cloned workspace controls may be symlinks to /dev/zero or FIFOs (git stores symlinks; a FIFO can sit
// in a shared folder). hub reads only regular files, bounded by the bytes read, so each case below ends at once
// with a clean answer instead of hanging or growing without bound.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let tmp: string;

beforeAll(() => {
  tmp = createTempDir('hub-special-');
});
afterAll(() => removeTempDir(tmp));

function workspace(name: string) {
  return buildWorkspace({
    root: join(tmp, name),
    projects: [
      {
        name: 'p',
        repos: [
          {
            name: 'r',
            files: { 'src/a.ts': 'export const needle = 1;\n', 'README.md': '# r\n\nFirst paragraph.\n' },
          },
        ],
      },
    ],
  });
}

describe('the manifest itself', () => {
  it.each([
    ['a symlink to /dev/zero', (p: string) => symlinkSync('/dev/zero', p)],
    ['a FIFO', (p: string) => execFileSync('mkfifo', [p])],
  ])('is refused when it is %s', (what, make) => {
    const dir = join(tmp, `manifest-${what.replace(/\W+/g, '-')}`);
    mkdirSync(dir);
    make(join(dir, '.hub.yml'));
    const r = runHub(['component', 'list', '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    expect(r.json().error.details.rule).toBe('regular_file');
  });
});

describe('config validate and the application config', () => {
  it('config validate refuses a FIFO manifest at once', () => {
    const dir = join(tmp, 'validate-fifo');
    mkdirSync(dir);
    execFileSync('mkfifo', [join(dir, '.hub.yml')]);
    const r = runHub(['config', 'validate', '--json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.json().problems[0].rule).toBe('regular_file');
  });

  it('a workspace hub.config.yaml that is a symlink to /dev/zero or a FIFO is passed over, never read', () => {
    const ws = workspace('appconfig-zero');
    symlinkSync('/dev/zero', join(ws.root, 'hub.config.yaml'));
    execFileSync('mkfifo', [join(ws.root, 'hub.config.yml')]);
    const r = runHub(['-c', ws.manifestPath, 'appconfig', 'info', '--json'], { cwd: ws.root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().source).not.toBe('workspace');
  });
});

describe('files inside a repository', () => {
  it('a README that is a FIFO or a link out does not stop a repo card', () => {
    const ws = workspace('readme');
    const repo = ws.repoDirs['p/r']!;
    rmSync(join(repo, 'README.md'));
    execFileSync('mkfifo', [join(repo, 'README.md')]);
    const r = runHub([
      '-c',
      ws.manifestPath,
      'context',
      'repo-card',
      '--project',
      'p',
      '--repo',
      'r',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().readme).toBeUndefined();
    rmSync(join(repo, 'README.md'));
    symlinkSync('/etc/hostname', join(repo, 'README.md'));
    const again = runHub([
      '-c',
      ws.manifestPath,
      'context',
      'repo-card',
      '--project',
      'p',
      '--repo',
      'r',
      '--json',
    ]);
    expect(again.code).toBe(0);
    expect(again.json().readme).toBeUndefined();
  });

  it('.git/info/exclude as a FIFO or /dev/zero does not stop grep or repomix', () => {
    const ws = workspace('exclude');
    const repo = ws.repoDirs['p/r']!;
    rmSync(join(repo, '.git', 'info'), { recursive: true, force: true });
    mkdirSync(join(repo, '.git', 'info'));
    execFileSync('mkfifo', [join(repo, '.git', 'info', 'exclude')]);
    const grep = runHub(['-c', ws.manifestPath, 'workspace', 'grep', 'needle', '--json'], {
      env: { HUB_GREP_BACKEND: 'builtin' },
    });
    expect(grep.code, grep.stderr).toBe(0);
    expect(grep.json().matches).toHaveLength(1);
    rmSync(join(repo, '.git', 'info', 'exclude'));
    symlinkSync('/dev/zero', join(repo, '.git', 'info', 'exclude'));
    const mix = runHub([
      '-c',
      ws.manifestPath,
      'context',
      'repomix',
      '--profile',
      'bugfix-local',
      '--project',
      'p',
      '--repo',
      'r',
      '--json',
    ]);
    expect(mix.code, mix.stderr).toBe(0);
  });

  it('a source file swapped for a symlink to /dev/zero is never read by the built-in grep', () => {
    const ws = workspace('zero-src');
    const repo = ws.repoDirs['p/r']!;
    symlinkSync('/dev/zero', join(repo, 'src', 'zero.ts'));
    writeFileSync(join(repo, 'src', 'b.ts'), 'needle again\n');
    const r = runHub(['-c', ws.manifestPath, 'workspace', 'grep', 'needle', '--json'], {
      env: { HUB_GREP_BACKEND: 'builtin' },
    });
    expect(r.code).toBe(0);
    expect(r.json().matches.map((m: { path: string }) => m.path)).toEqual(['src/a.ts', 'src/b.ts']);
  });
});
