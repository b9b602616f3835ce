// The claim guard in real git: a commit touching paths another live agent claims is warned about, or stopped in
// strict mode; the user's own hook lines survive install, reinstall and uninstall; core.hooksPath and worktrees.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let manifest: string;
let repo: string;

beforeAll(() => {
  dir = createTempDir('hub-claim-guard-');
  const demo = createDemo(join(dir, 'demo'));
  manifest = demo.manifestPath;
  repo = join(demo.root, 'platform', 'identity');
  const r = runHub([
    '-c',
    manifest,
    'claim',
    'declare',
    '--repository',
    'platform/identity',
    '--agent-id',
    'agent-b',
    '--pattern',
    'services/api/**',
    '--ttl',
    '2h',
  ]);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(() => removeTempDir(dir));

const hub = (...args: string[]) => runHub(['-c', manifest, ...args, '--json']);

/** Stages `file` and commits in `cwd` as `agent` (HUB_AGENT_ID); the hook runs. */
function commit(cwd: string, file: string, agent: string | undefined) {
  writeFileSync(join(cwd, file), `${Date.now()}-${Math.random()}\n`);
  git(cwd, ['add', file]);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'HUB_AGENT_ID') env[k] = v;
  const r = spawnSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', `touch ${file}`],
    {
      cwd,
      env: { ...env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', ...(agent ? { HUB_AGENT_ID: agent } : {}) },
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) git(cwd, ['reset', '-q', 'HEAD', '--', file]);
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('claim guard', () => {
  it('stops, in strict mode, a commit touching a path another live agent claims, and lets the holder commit', () => {
    const r = hub('claim', 'guard', 'install', '--repository', 'platform/identity', '--strict');
    expect(r.code, r.stdout).toBe(0);
    const hook = r.json().hook as string;
    expect(hook).toBe(join(repo, '.git', 'hooks', 'pre-commit'));
    expect(statSync(hook).mode & 0o111).toBe(0o111);
    const blocked = commit(repo, 'services/api/new.go', 'agent-a');
    expect(blocked.code).not.toBe(0);
    expect(blocked.out).toContain('services/api/new.go: claimed by agent-b');
    expect(blocked.out).toContain('commit stopped (strict)');
    expect(commit(repo, 'services/api/new.go', 'agent-b').code).toBe(0);
    expect(commit(repo, 'README.md', 'agent-a').code).toBe(0);
  });

  it('reads the agent from git config hub.agentId when HUB_AGENT_ID is unset', () => {
    git(repo, ['config', 'hub.agentId', 'agent-b']);
    expect(commit(repo, 'services/api/b.go', undefined).code).toBe(0);
    git(repo, ['config', '--unset', 'hub.agentId']);
    // No agent at all: every live claim is someone else's.
    expect(commit(repo, 'services/api/c.go', undefined).code).not.toBe(0);
  });

  it('only warns without --strict (reinstalling replaces the block, never adds a second)', () => {
    expect(hub('claim', 'guard', 'install', '--repository', 'platform/identity').json()).toMatchObject({
      replaced: true,
      strict: false,
    });
    const text = readFileSync(join(repo, '.git', 'hooks', 'pre-commit'), 'utf8');
    expect(text.split('# >>> hub claim guard platform/identity >>>')).toHaveLength(2);
    const warned = commit(repo, 'services/api/d.go', 'agent-a');
    expect(warned.code).toBe(0);
    expect(warned.out).toContain('claimed by agent-b');
    expect(warned.out).toContain('warning only');
  });

  it("keeps the user's hook lines on install and uninstall", () => {
    const hookFile = join(repo, '.git', 'hooks', 'pre-commit');
    hub('claim', 'guard', 'uninstall', '--repository', 'platform/identity');
    writeFileSync(hookFile, '#!/bin/sh\necho user-hook-ran\n');
    chmodSync(hookFile, 0o755);
    expect(
      hub('claim', 'guard', 'install', '--repository', 'platform/identity', '--strict').json().merged,
    ).toBe(true);
    const both = commit(repo, 'services/api/e.go', 'agent-a');
    expect(both.code).not.toBe(0);
    const ok = commit(repo, 'README.md', 'agent-a');
    expect(ok.out).toContain('user-hook-ran');
    expect(hub('claim', 'guard', 'uninstall', '--repository', 'platform/identity').json().removed).toBe(true);
    expect(readFileSync(hookFile, 'utf8')).toBe('#!/bin/sh\necho user-hook-ran\n');
    expect(commit(repo, 'services/api/e.go', 'agent-a').code).toBe(0);
  });

  it('refuses to edit a hook in another language, naming it', () => {
    const hookFile = join(repo, '.git', 'hooks', 'pre-commit');
    writeFileSync(hookFile, '#!/usr/bin/env python3\nprint("hi")\n');
    const r = hub('claim', 'guard', 'install', '--repository', 'platform/identity');
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({ code: 'refused', details: { rule: 'shell_hook' } });
    expect(readFileSync(hookFile, 'utf8')).toBe('#!/usr/bin/env python3\nprint("hi")\n');
    writeFileSync(hookFile, '');
  });

  it('guards commits in a worktree of the repository (worktrees share the hooks folder)', () => {
    hub('claim', 'guard', 'install', '--repository', 'platform/identity', '--strict');
    const wt = join(dir, 'wt-identity');
    git(repo, ['worktree', 'add', '-q', '-b', 'agent-a/task', wt]);
    const inWorktree = commit(wt, 'services/api/g.go', 'agent-a');
    expect(inWorktree.code).not.toBe(0);
    expect(inWorktree.out).toContain('services/api/g.go: claimed by agent-b');
    expect(commit(wt, 'services/api/g.go', 'agent-b').code).toBe(0);
  });

  it('writes into core.hooksPath when it is set', () => {
    git(repo, ['config', 'core.hooksPath', '.githooks']);
    const r = hub('claim', 'guard', 'install', '--repository', 'platform/identity', '--strict');
    expect(r.json().hook).toBe(join(repo, '.githooks', 'pre-commit'));
    expect(commit(repo, 'services/api/f.go', 'agent-a').code).not.toBe(0);
    git(repo, ['config', '--unset', 'core.hooksPath']);
  });

  it('checks nothing when a shared hooks folder runs it in another repository', () => {
    const other = join(dir, 'demo', 'platform', 'gateway');
    mkdirSync(join(other, 'services', 'api'), { recursive: true });
    writeFileSync(join(other, 'services', 'api', 'x'), 'x');
    git(other, ['add', 'services/api/x']);
    const r = runHub(
      ['-c', manifest, 'claim', 'guard', 'check', '--repository', 'platform/identity', '--strict', '--json'],
      {
        cwd: other,
      },
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      skipped: expect.stringContaining('not a checkout of platform/identity'),
      hits: [],
    });
    expect(existsSync(join(other, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('checks explicit paths, refusing ones that are not repository-relative', () => {
    const r = hub(
      'claim',
      'guard',
      'check',
      '--repository',
      'platform/identity',
      '--path',
      'services/api/x.go',
      '--path',
      'docs/a.md',
    );
    expect(r.json()).toMatchObject({
      paths_checked: 2,
      hits: [{ path: 'services/api/x.go', agent_id: 'agent-b' }],
    });
    for (const bad of ['/etc/passwd', '../x', 'a//b'])
      expect(
        hub('claim', 'guard', 'check', '--repository', 'platform/identity', '--path', bad).json().error,
      ).toMatchObject({
        code: 'validation',
        details: { rule: 'relative_path' },
      });
  });
});
