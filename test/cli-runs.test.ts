// The run ledger, routing, lanes and policies through the built CLI (npm run build first), on the local backend.
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;
let manifest: string;

beforeAll(() => {
  dir = createTempDir('hub-cli-runs-');
  root = createDemo(join(dir, 'demo')).root;
  manifest = join(root, '.hub.yml');
});
afterAll(() => removeTempDir(dir));

const hub = (args: string[], opts: { input?: string; cwd?: string } = {}) =>
  runHub(['-c', manifest, ...args], opts);
const ok = (args: string[], opts: { input?: string } = {}) => {
  const r = hub([...args, '--json'], opts);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json();
};
const err = (args: string[], code = 1) => {
  const r = hub([...args, '--json']);
  expect(r.code, r.stdout + r.stderr).toBe(code);
  return r.json().error;
};

describe('run ledger on the CLI', () => {
  it('opens, closes with evidence (masked), refuses a second close, lists, shows, replays and exports', () => {
    ok([
      'route',
      'add',
      '--id',
      'REQ-login',
      '--title',
      'Login fixes',
      '--trigger',
      'fix login bug',
      '--tier',
      'skilled',
    ]);
    const open = ok([
      'run',
      'open',
      '--actor',
      'agent-a',
      '--class',
      'REQ-login',
      '--repository',
      'platform/identity',
      '--branch',
      'agent/t1',
      '--task-id',
      't1',
      '--objective',
      'fix the login',
    ]);
    const id = open.run.run_id as string;
    expect(open.run).toMatchObject({ status: 'open', tier: 'skilled', repository: 'platform/identity' });
    // The human form prints the id alone, for scripts.
    const plain = hub(['run', 'open', '--actor', 'agent-b']);
    expect(plain.stdout.trim()).toMatch(/^run-\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{8}$/);

    const token = ['ghp', 'R8x2Kq9LmZ4vT7pW1nB6cY3hJ5dF0sGaE2uQ'].join('_');
    const evidence = join(dir, 'evidence.log');
    writeFileSync(evidence, `tests passed\nexport GITHUB_TOKEN=${token}\n`);
    const closed = ok([
      'run',
      'close',
      '--id',
      id,
      '--outcome',
      'landed',
      '--gate',
      'lint=pass',
      '--gate',
      'test=pass',
      '--evidence-file',
      evidence,
      '--mr-url',
      'https://git.example.com/p/r/-/merge_requests/3',
    ]);
    expect(closed.run).toMatchObject({
      status: 'closed',
      outcome: 'landed',
      evidence: { text: 'tests passed\nexport GITHUB_TOKEN=***E2uQ\n', redactions: 1 },
    });
    expect(readFileSync(join(root, '.hub/runs', `${id}.json`), 'utf8')).not.toContain(token);
    expect(err(['run', 'close', '--id', id, '--outcome', 'bounced'])).toMatchObject({
      code: 'refused',
      details: { rule: 'run_closed', outcome: 'landed' },
    });

    const list = ok(['run', 'list', '--actor', 'agent-a']);
    expect(list).toMatchObject({ count: 1, next_cursor: null, runs: [{ run_id: id }] });
    expect(ok(['run', 'list', '--open']).runs.map((r: { actor: string }) => r.actor)).toEqual(['agent-b']);
    const page = ok(['run', 'list', '--limit', '1']);
    expect(page.count).toBe(1);
    expect(ok(['run', 'list', '--limit', '1', '--cursor', page.next_cursor]).runs[0].run_id).toBe(id);

    expect(ok(['run', 'show', '--id', id]).run.gates).toHaveLength(2);
    const replay = ok(['run', 'replay', '--id', id, '--actor', 'agent-c']);
    expect(replay.run).toMatchObject({
      actor: 'agent-c',
      replay_of: id,
      branch: 'agent/t1',
      class: 'REQ-login',
    });

    const jsonl = hub(['run', 'export', '--format', 'jsonl', '--class', 'REQ-login']);
    expect(jsonl.code).toBe(0);
    const lines = jsonl.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.run_id)).toEqual([id, replay.run.run_id]);
    expect(jsonl.stdout).not.toContain(token);
  });

  it('names the close closest to an unknown id, and refuses ids that are not run ids', () => {
    const id = ok(['run', 'open', '--actor', 'agent-x']).run.run_id as string;
    const typo = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
    const e = err(['run', 'show', '--id', typo]);
    expect(e.code).toBe('not_found');
    // The closest first (one edit); ids opened in the same second are close too.
    expect(e.details.suggestions[0]).toBe(id);
    expect(e.message).toContain('did you mean');
    for (const bad of ['../../etc/passwd', 'runs/../agents/x', 'run-x/..'])
      expect(err(['run', 'show', '--id', bad])).toMatchObject({
        code: 'validation',
        details: { field: 'run_id' },
      });
    // An unknown outcome is a usage error (the flag's choices): exit 2.
    const merged = hub(['run', 'close', '--id', id, '--outcome', 'merged']);
    expect(merged.code).toBe(2);
    expect(merged.stderr).toContain('landed, bounced, noop, abandoned, failed');
  });

  it('refuses an evidence file that is a FIFO or too big, and follows a symlink the user named', () => {
    const id = ok(['run', 'open', '--actor', 'agent-y']).run.run_id as string;
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(err(['run', 'close', '--id', id, '--outcome', 'noop', '--evidence-file', fifo])).toMatchObject({
      details: { field: 'evidence_file', rule: 'regular_file' },
    });
    const big = join(dir, 'big.log');
    writeFileSync(big, 'x'.repeat(256 * 1024 + 1));
    expect(err(['run', 'close', '--id', id, '--outcome', 'noop', '--evidence-file', big])).toMatchObject({
      details: { field: 'evidence_file', rule: 'max_size' },
    });
    const target = join(dir, 'outside.log');
    writeFileSync(target, 'outside the workspace\n');
    const link = join(root, 'evidence-link.log');
    symlinkSync(target, link);
    expect(
      ok(['run', 'close', '--id', id, '--outcome', 'noop', '--evidence-file', link]).run.evidence.text,
    ).toBe('outside the workspace\n');
  });
});

describe('routing, lanes and policies on the CLI', () => {
  it('routes an ask (exit 0) or says how to add a class (exit 1)', () => {
    ok([
      'route',
      'add',
      '--id',
      'REQ-docs',
      '--title',
      'Docs',
      '--trigger',
      'update the docs',
      '--mutates',
      'no',
    ]);
    const hit = ok(['route', 'query', 'please update the docs']);
    expect(hit).toMatchObject({
      ok: true,
      matches: [{ id: 'REQ-docs', confidence: 1, why: 'matched:update,docs' }],
    });
    const miss = hub(['route', 'query', 'rotate the certificates', '--json']);
    expect(miss.code).toBe(1);
    expect(miss.json()).toMatchObject({ ok: false, count: 0 });
    expect(miss.json().hint).toContain('hub route add');
    expect(hub(['route', 'query', 'rotate the certificates']).stdout).toContain('no match');
    expect(ok(['route', 'list']).classes.find((c: { id: string }) => c.id === 'REQ-docs').mutates).toBe(
      false,
    );
    expect(err(['route', 'add', '--id', 'REQ-docs', '--title', 'x', '--trigger', 'y'])).toMatchObject({
      code: 'refused',
      details: { rule: 'class_exists' },
    });
    const up = ok(['route', 'add', '--id', 'REQ-docs', '--update', '--executor', 'make docs']);
    expect(up.class).toMatchObject({ mutates: false, executor: 'make docs', triggers: ['update the docs'] });
    expect(ok(['route', 'show', '--id', 'REQ-docs']).run_count).toBe(0);
  });

  it('promotes a class after five clean runs (dry run first), and a second eval changes nothing', () => {
    ok(['route', 'add', '--id', 'REQ-bump', '--title', 'Bump', '--trigger', 'bump dependency']);
    for (let i = 0; i < 5; i++) {
      const id = ok(['run', 'open', '--actor', 'bumper', '--class', 'REQ-bump']).run.run_id;
      ok(['run', 'close', '--id', id, '--outcome', i === 2 ? 'abandoned' : 'landed']);
    }
    const id = ok(['run', 'open', '--actor', 'bumper', '--class', 'REQ-bump']).run.run_id;
    ok(['run', 'close', '--id', id, '--outcome', 'landed']);
    const dry = ok(['lane', 'eval', '--id', 'REQ-bump', '--dry-run']);
    expect(dry).toMatchObject({ dry_run: true, promoted: ['REQ-bump'] });
    expect(ok(['route', 'show', '--id', 'REQ-bump']).class.tier).toBe('novel');
    expect(ok(['lane', 'eval', '--id', 'REQ-bump']).promoted).toEqual(['REQ-bump']);
    expect(ok(['route', 'show', '--id', 'REQ-bump']).class).toMatchObject({
      tier: 'skilled',
      promotion_state: 'promoted',
    });
    ok(['lane', 'eval']);
    expect(ok(['lane', 'eval']).results.every((r: { changed: boolean }) => !r.changed)).toBe(true);
    expect(ok(['route', 'show', '--id', 'REQ-bump']).class.tier).toBe('skilled');
  });

  it('sets a policy from stdin and evaluates it: exit 0 for allow, 1 for deny or require_approval', () => {
    const policy = {
      rules: [
        { when: { branch: { glob: 'release/**' } }, effect: 'require_approval', reason: 'release branch' },
        { when: { tier: ['skilled', 'deterministic'] }, effect: 'allow', reason: 'trusted lane' },
      ],
    };
    expect(hub(['policy', 'list']).stdout.trim()).toBe('no policies (set one: hub policy set)');
    expect(hub(['run', 'list', '--actor', 'nobody']).stdout.trim()).toBe('no runs');
    expect(ok(['policy', 'set', '--name', 'merge'], { input: JSON.stringify(policy) })).toMatchObject({
      created: true,
      policy: { default: 'deny' },
    });
    const allow = hub(['policy', 'eval', '--policy', 'merge', '--input', '{"tier":"skilled"}']);
    expect(allow.code).toBe(0);
    expect(allow.stdout).toContain('allow (rule 1): trusted lane');
    const approval = hub([
      'policy',
      'eval',
      '--policy',
      'merge',
      '--input',
      '{"branch":"release/2"}',
      '--json',
    ]);
    expect(approval.code).toBe(1);
    expect(approval.json()).toEqual({
      policy: 'merge',
      decision: 'require_approval',
      rule_index: 0,
      reason: 'release branch',
    });
    expect(hub(['policy', 'eval', '--policy', 'merge', '--input', '{}']).code).toBe(1);
    expect(err(['policy', 'eval', '--policy', 'merg', '--input', '{}'])).toMatchObject({
      code: 'not_found',
      details: { suggestions: ['merge'] },
    });
    expect(ok(['policy', 'list']).policies).toEqual([{ name: 'merge', rules: 2, default: 'deny' }]);
  });
});
