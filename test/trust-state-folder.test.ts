// The `.hub/` state folder sits in the workspace, which may be a cloned repository: git stores symlinks, and a
// shared folder may hold a FIFO. The local backend keeps its documents and locks inside the workspace on the real
// path, and reads only regular files, so each case ends at once with a clear refusal: never a write outside, never
// a hang.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let tmp: string;
beforeAll(() => {
  tmp = createTempDir('hub-state-folder-');
});
afterAll(() => removeTempDir(tmp));

const demo = (name: string) => createDemo(join(tmp, name, 'demo'));
const set = (manifest: string) =>
  runHub(['-c', manifest, 'context', 'objective', 'set', '--id', 'x', '--title', 'X', '--json']);
const list = (manifest: string) => runHub(['-c', manifest, 'context', 'objective', 'list', '--json']);

describe('the local state folder', () => {
  it('is refused when .hub is a symlink out of the workspace, and nothing is written there', () => {
    const { root, manifestPath } = demo('link');
    const outside = join(tmp, 'link', 'elsewhere');
    mkdirSync(outside);
    symlinkSync(outside, join(root, '.hub'));
    const w = set(manifestPath);
    expect(w.code, w.stdout + w.stderr).toBe(1);
    expect(w.json().error.details.rule).toBe('state_inside_workspace');
    expect(readdirSync(outside)).toEqual([]);
    const r = list(manifestPath);
    expect(r.code).toBe(1);
    expect(r.json().error.details.rule).toBe('state_inside_workspace');
  });

  it('still works when .hub is a symlink to a folder inside the workspace', () => {
    const { root, manifestPath } = demo('inside-link');
    mkdirSync(join(root, 'state-here'));
    symlinkSync(join(root, 'state-here'), join(root, '.hub'));
    expect(set(manifestPath).code).toBe(0);
    expect(existsSync(join(root, 'state-here', 'objectives.json'))).toBe(true);
  });

  it.each([
    ['a FIFO', (p: string) => execFileSync('mkfifo', [p])],
    ['a symlink to /dev/zero', (p: string) => symlinkSync('/dev/zero', p)],
  ])('refuses a document that is %s at once', (what, make) => {
    const { root, manifestPath } = demo(`doc-${what.replace(/\W+/g, '-')}`);
    mkdirSync(join(root, '.hub'));
    make(join(root, '.hub', 'objectives.json'));
    for (const r of [list(manifestPath), set(manifestPath)]) {
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.json().error.details).toMatchObject({ document: 'objectives' });
    }
  });

  it('refuses a lock file that is a FIFO at once, naming it', () => {
    const { root, manifestPath } = demo('lock-fifo');
    mkdirSync(join(root, '.hub', 'locks'), { recursive: true });
    execFileSync('mkfifo', [join(root, '.hub', 'locks', 'objectives.lock')]);
    const w = set(manifestPath);
    expect(w.code, w.stdout + w.stderr).toBe(1);
    expect(w.json().error.details).toMatchObject({ rule: 'lock_regular_file' });
  });

  it('reads a document written indented by an earlier build', () => {
    const { root, manifestPath } = demo('indented');
    mkdirSync(join(root, '.hub'));
    const doc = {
      objectives: [
        { id: 'old', title: 'Old', status: 'pending', repos: [], created_at: 'a', updated_at: 'a' },
      ],
    };
    writeFileSync(join(root, '.hub', 'objectives.json'), JSON.stringify(doc, null, 2));
    expect(
      list(manifestPath)
        .json()
        .objectives.map((o: { id: string }) => o.id),
    ).toEqual(['old']);
  });
});
