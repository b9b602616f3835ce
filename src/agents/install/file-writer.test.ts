import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir, thrown } from '../../../test/fixtures/index.js';
import { applyFileWrites, planFileWrite } from './file-writer.js';
import { markerState, withMarker } from './managed-marker.js';
import { viewPlan } from './plan-view.js';

let root: string;
let outside: string;
beforeEach(() => {
  root = createTempDir('hub-writer-');
  outside = createTempDir('hub-writer-out-');
});
afterEach(() => {
  removeTempDir(root);
  removeTempDir(outside);
});

const write = (rel: string, text: string) => {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), text);
};
const read = (rel: string) => readFileSync(join(root, rel), 'utf8');

describe('planFileWrite', () => {
  it('creates a missing file with its parents, marked as hub’s', () => {
    const plan = planFileWrite(join(root, '.claude/agents/a.md'), '# A\n', { root });
    expect(plan.action).toBe('create');
    const r = applyFileWrites([plan]);
    expect(r.written).toEqual([join(root, '.claude/agents/a.md')]);
    expect(read('.claude/agents/a.md')).toMatch(/^# A\n<!-- hub:managed sha256=[0-9a-f]{64}; /);
    expect(markerState(read('.claude/agents/a.md'))).toBe('intact');
  });

  it('leaves an identical file alone (no write at all)', () => {
    applyFileWrites([planFileWrite(join(root, 'a.md'), '# A\n', { root })]);
    const before = statSync(join(root, 'a.md')).mtimeMs;
    const plan = planFileWrite(join(root, 'a.md'), '# A\n', { root });
    expect(plan.action).toBe('unchanged');
    expect(applyFileWrites([plan]).written).toEqual([]);
    expect(statSync(join(root, 'a.md')).mtimeMs).toBe(before);
  });

  it('treats a CRLF checkout of the same file as identical', () => {
    write('a.md', withMarker('a.md', '# A\nline\n').replace(/\n/g, '\r\n'));
    expect(planFileWrite(join(root, 'a.md'), '# A\nline\n', { root }).action).toBe('unchanged');
  });

  it('updates a file hub wrote that nobody changed', () => {
    applyFileWrites([planFileWrite(join(root, 'a.md'), '# A v1\n', { root })]);
    const plan = planFileWrite(join(root, 'a.md'), '# A v2\n', { root });
    expect(plan.action).toBe('update');
    applyFileWrites([plan]);
    expect(read('a.md')).toMatch(/^# A v2\n/);
  });

  it('refuses to replace a file hub wrote that the user changed, naming the path; --force replaces it', () => {
    applyFileWrites([planFileWrite(join(root, 'a.md'), '# A v1\n', { root })]);
    write('a.md', read('a.md').replace('v1', 'v1 with my notes'));
    const plan = planFileWrite(join(root, 'a.md'), '# A v2\n', { root });
    expect(plan).toMatchObject({ action: 'conflict', rule: 'changed_by_user', forceable: true });
    const err = thrown(() => applyFileWrites([plan]));
    expect(err).toMatchObject({ code: 'refused' });
    expect((err as Error).message).toContain(join(root, 'a.md'));
    expect(read('a.md')).toContain('my notes');
    const forced = planFileWrite(join(root, 'a.md'), '# A v2\n', { root, force: true });
    expect(forced.action).toBe('update');
    applyFileWrites([forced]);
    expect(read('a.md')).toMatch(/^# A v2\n/);
  });

  it('counts text appended after the marker as a change by the user', () => {
    applyFileWrites([planFileWrite(join(root, 'a.md'), '# A v1\n', { root })]);
    write('a.md', `${read('a.md')}my line\n`);
    expect(planFileWrite(join(root, 'a.md'), '# A v2\n', { root })).toMatchObject({
      action: 'conflict',
      rule: 'changed_by_user',
    });
  });

  it('refuses a file hub did not write that is in the way', () => {
    write('a.md', '# mine\n');
    expect(planFileWrite(join(root, 'a.md'), '# A\n', { root })).toMatchObject({
      action: 'conflict',
      rule: 'not_written_by_hub',
    });
  });

  it('writes nothing of a batch when one file conflicts', () => {
    write('b.md', '# mine\n');
    const plans = [
      planFileWrite(join(root, 'a.md'), '# A\n', { root }),
      planFileWrite(join(root, 'b.md'), '# B\n', { root }),
    ];
    expect(() => applyFileWrites(plans)).toThrow(/b\.md/);
    expect(existsSync(join(root, 'a.md'))).toBe(false);
    expect(read('b.md')).toBe('# mine\n');
  });

  it('a dry run writes nothing and returns every file with its action, content and patch', () => {
    applyFileWrites([planFileWrite(join(root, 'a.md'), '# A v1\n', { root })]);
    const plans = [
      planFileWrite(join(root, 'a.md'), '# A v2\n', { root }),
      planFileWrite(join(root, 'new/b.md'), '# B\n', { root }),
    ];
    const r = applyFileWrites(plans, { dryRun: true });
    expect(r.written).toEqual([]);
    expect(existsSync(join(root, 'new'))).toBe(false);
    expect(read('a.md')).toMatch(/^# A v1/);
    const views = r.plans.map((p) => viewPlan(p, { detail: true }));
    expect(views.map((v) => v.action)).toEqual(['update', 'create']);
    expect(views[0]!.patch).toContain('-# A v1');
    expect(views[0]!.patch).toContain('+# A v2');
    expect(views[1]!.content).toMatch(/^# B\n/);
  });

  it('refuses to write again when the file changed after the plan', () => {
    const plan = planFileWrite(join(root, 'a.md'), '# A\n', { root });
    write('a.md', 'raced\n');
    expect(thrown(() => applyFileWrites([plan]))).toMatchObject({
      details: { rule: 'unchanged_since_plan' },
    });
    expect(read('a.md')).toBe('raced\n');
  });

  it('keeps the permission bits of a file it replaces', () => {
    applyFileWrites([planFileWrite(join(root, 'a.md'), '# A v1\n', { root })]);
    execFileSync('chmod', ['600', join(root, 'a.md')]);
    applyFileWrites([planFileWrite(join(root, 'a.md'), '# A v2\n', { root })]);
    expect(statSync(join(root, 'a.md')).mode & 0o777).toBe(0o600);
  });

  it('never writes through a symbolic link, even with --force and even to a file inside the root', () => {
    writeFileSync(join(root, 'config'), 'Host *\n');
    symlinkSync(join(root, 'config'), join(root, 'a.md'));
    const plan = planFileWrite(join(root, 'a.md'), '# A\n', { root, force: true });
    expect(plan).toMatchObject({ action: 'conflict', rule: 'symlink', forceable: false });
    expect(() => applyFileWrites([plan])).toThrow(/symbolic link/);
    expect(readFileSync(join(root, 'config'), 'utf8')).toBe('Host *\n');
    expect(lstatSync(join(root, 'a.md')).isSymbolicLink()).toBe(true);
  });

  it('refuses a folder whose real path lies outside the root', () => {
    symlinkSync(outside, join(root, '.claude'));
    const plan = planFileWrite(join(root, '.claude/agents/a.md'), '# A\n', { root, force: true });
    expect(plan).toMatchObject({ action: 'conflict', rule: 'inside_root', forceable: false });
    expect(() => applyFileWrites([plan])).toThrow();
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses a path outside the root lexically', () => {
    expect(planFileWrite(join(root, '../x.md'), '# A\n', { root })).toMatchObject({
      action: 'conflict',
      rule: 'inside_root',
    });
  });

  it('refuses a FIFO without blocking, and an oversized file', () => {
    execFileSync('mkfifo', [join(root, 'fifo.md')]);
    expect(planFileWrite(join(root, 'fifo.md'), '# A\n', { root, force: true })).toMatchObject({
      action: 'conflict',
      rule: 'regular_file',
      forceable: false,
    });
    write('big.md', 'x'.repeat(2048));
    expect(planFileWrite(join(root, 'big.md'), '# A\n', { root, maxBytes: 1024 })).toMatchObject({
      action: 'conflict',
      rule: 'max_size',
    });
  });

  it('marks scripts with a # comment and leaves unmarkable files to identity', () => {
    expect(withMarker('run.sh', 'echo hi\n')).toMatch(/\n# hub:managed sha256=/);
    expect(withMarker('data.json', '{}\n')).toBe('{}\n');
    write('data.json', '{"a":1}\n');
    expect(planFileWrite(join(root, 'data.json'), '{}\n', { root }).action).toBe('conflict');
  });
});

describe('installedAgent', () => {
  it('says whether the artifact exists, where, and whether it is hub’s unchanged file', async () => {
    const { installedAgent } = await import('./installed-agent.js');
    const { VENDORS } = await import('../vendors.js');
    const roots = { projectRoot: root, home: outside };
    expect(installedAgent(VENDORS.claude_code, 'project', roots, 'a')).toEqual({
      exists: false,
      path: join(root, '.claude/agents/a.md'),
      state: null,
    });
    applyFileWrites([planFileWrite(join(root, '.claude/agents/a.md'), '# A\n', { root })]);
    expect(installedAgent(VENDORS.claude_code, 'project', roots, 'a').state).toBe('intact');
    expect(installedAgent(VENDORS.codex, 'user', roots, 'a').path).toBe(
      join(outside, '.agents/skills/a/SKILL.md'),
    );
  });
});
