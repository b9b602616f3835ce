import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { HUB_BIN, runHub } from './run-hub.js';

let dir: string;
let root: string;
let manifest: string;

beforeAll(() => {
  dir = createTempDir('hub-coord-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
});
afterAll(() => removeTempDir(dir));

let stdinFiles = 0;

/**
 * `hub -c <demo> <args> --json`; JSON for stdin is redirected from a file, as `hub ... < item.json` does
 * (the CLI reads stdin only from a pipe or a file, never from the socket a Node parent opens by default).
 */
function hub(args: string[], stdin?: unknown) {
  if (stdin === undefined) return runHub(['-c', manifest, ...args, '--json']);
  const file = join(dir, `stdin-${++stdinFiles}.json`);
  writeFileSync(file, JSON.stringify(stdin));
  const fd = openSync(file, 'r');
  try {
    const r = spawnSync(process.execPath, [HUB_BIN, '-c', manifest, ...args, '--json'], {
      env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_AGENT_MODE: '', NO_COLOR: '1' },
      stdio: [fd, 'pipe', 'pipe'],
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
  } finally {
    closeSync(fd);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('context objective', () => {
  it('sets from stdin JSON with flags on top, normalizing repos', () => {
    const r = hub(['context', 'objective', 'set', '--left-off', 'wrote the parser'], {
      id: 'auth-rollout',
      title: '  Roll out auth  ',
      repos: [join(root, 'platform', 'identity'), '/opt/external/repo', 'storefront/web'],
      acceptance: 'login works',
    });
    expect(r.code, r.stdout).toBe(0);
    expect(r.json()).toMatchObject({
      created: true,
      objective: {
        id: 'auth-rollout',
        title: 'Roll out auth',
        status: 'pending',
        repos: ['./platform/identity', '/opt/external/repo', 'storefront/web'],
        acceptance: 'login works',
      },
    });
    expect(r.json().objective.agent_notes).toMatch(
      /^\[\d{4}-\d\d-\d\dT[\d:.]+Z\] left off: wrote the parser$/,
    );
    const onDisk = JSON.parse(readFileSync(join(root, '.hub', 'objectives.json'), 'utf8'));
    expect(onDisk.objectives.map((o: { id: string }) => o.id)).toContain('auth-rollout');
  });

  it('sets from flags and merges into an existing id without title or repos', () => {
    const notes = join(dir, 'notes.md');
    writeFileSync(notes, 'first line\nsecond line\n');
    const a = hub([
      'context',
      'objective',
      'set',
      '--id',
      'merge-me',
      '--title',
      'Merge me',
      '--repos',
      'a/b',
    ]);
    expect(a.code, a.stdout).toBe(0);
    const b = hub(['context', 'objective', 'set', '--notes-file', notes, '--blockers', 'ci red'], {
      id: 'merge-me',
      status: 'in_progress',
      repos: ['c/d'],
    });
    expect(b.code, b.stdout).toBe(0);
    expect(b.json()).toMatchObject({
      created: false,
      objective: { id: 'merge-me', title: 'Merge me', status: 'in_progress', repos: ['a/b', 'c/d'] },
    });
    expect(b.json().objective.agent_notes).toContain('notes: first line\n  second line');
    expect(b.json().objective.agent_notes).toContain('blockers: ci red');
    const created = hub(['context', 'objective', 'set', '--id', 'no-title']);
    expect(created.code).toBe(1);
    expect(created.json().error.message).toContain('title: required');
  });

  it('refuses an unknown status, listing the allowed values', () => {
    const r = hub(['context', 'objective', 'set', '--id', 'bad-status', '--title', 'x', '--status', 'doing']);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'validation',
      details: { field: 'status', value: 'doing' },
    });
    expect(r.json().error.message).toContain('pending, in_progress, blocked, done, cancelled');
  });

  it('edits an allowed field and refuses any other, naming the editable fields', () => {
    hub(['context', 'objective', 'set', '--id', 'edit-me', '--title', 'Edit me']);
    const ok = hub([
      'context',
      'objective',
      'edit',
      '--id',
      'edit-me',
      '--field',
      'status',
      '--value',
      'blocked',
    ]);
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.json().objective.status).toBe('blocked');
    const repos = hub([
      'context',
      'objective',
      'edit',
      '--id',
      'edit-me',
      '--field',
      'repos',
      '--value',
      'x/y,z/w',
    ]);
    expect(repos.json().objective.repos).toEqual(['x/y', 'z/w']);
    const bad = hub([
      'context',
      'objective',
      'edit',
      '--id',
      'edit-me',
      '--field',
      'created_at',
      '--value',
      'x',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.json().error.code).toBe('validation');
    expect(bad.json().error.message).toBe(
      "field 'created_at' cannot be edited; editable fields: title, status, repos, acceptance, human_notes, agent_notes",
    );
    const missing = hub(['context', 'objective', 'edit', '--id', 'nope', '--field', 'title', '--value', 'x']);
    expect(missing.json().error.code).toBe('not_found');
  });

  it('lists objectives, optionally by status', () => {
    const all = hub(['context', 'objective', 'list'])
      .json()
      .objectives.map((o: { id: string }) => o.id);
    expect(all).toEqual(expect.arrayContaining(['auth-rollout', 'merge-me', 'edit-me']));
    const blocked = hub(['context', 'objective', 'list', '--status', 'blocked']).json().objectives;
    expect(blocked.map((o: { id: string }) => o.id)).toEqual(['edit-me']);
  });
});

describe('context pause and resume', () => {
  it('pauses into an in_progress objective and resumes in_progress first, then most recent, with a filter', () => {
    const p = hub([
      'context',
      'pause',
      '--title',
      'Resume Zeta',
      '--repo',
      'platform/identity',
      '--next',
      'rz',
    ]);
    expect(p.code, p.stdout).toBe(0);
    expect(p.json().objective).toMatchObject({
      id: 'resume-zeta',
      status: 'in_progress',
      repos: ['platform/identity'],
    });
    hub(['context', 'objective', 'set', '--id', 'rz-older', '--title', 'Older zeta']);
    hub([
      'context',
      'objective',
      'set',
      '--id',
      'rz-newer',
      '--title',
      'Newer zeta',
      '--human-notes',
      'kiwi',
    ]);

    const best = hub(['context', 'resume', 'zeta']).json();
    expect(best).toMatchObject({ found: true, query: 'zeta', objective: { id: 'resume-zeta' } });
    expect(best.alternatives.map((a: { id: string }) => a.id)).toEqual(['rz-newer', 'rz-older']);
    expect(hub(['context', 'resume', 'KIWI']).json().objective.id).toBe('rz-newer');

    const detailed = hub(['context', 'resume', 'resume-zeta', '--format', 'detailed']).json();
    expect(detailed.detail).toContain('resume-zeta: Resume Zeta [in_progress]');
    expect(detailed.detail).toContain('next: rz');
    const none = hub(['context', 'resume', 'no-such-thing']);
    expect(none.code).toBe(0);
    expect(none.json()).toMatchObject({ found: false, objective: null });
    const human = runHub(['-c', manifest, 'context', 'resume', 'zeta']);
    expect(human.stdout).toContain('resume-zeta: Resume Zeta [in_progress]');
  });
});

describe('context handoff', () => {
  it('creates, claims, refuses a second claimer and a foreign heartbeat, and lists an expired claim released', async () => {
    const c = hub(['context', 'handoff', 'create', '--created-by', 'alice'], {
      id: 'ho-api',
      title: 'Finish the API',
      payload: { objective_id: 'auth-rollout' },
    });
    expect(c.code, c.stdout).toBe(0);
    expect(c.json()).toMatchObject({ id: 'ho-api', status: 'open', created_by: 'alice' });

    // 5s: long enough that the two refusals below still meet a live claim on a loaded machine (each is a CLI start).
    const claim = hub(['context', 'handoff', 'claim', '--id', 'ho-api', '--by', 'bob', '--ttl', '5s']);
    expect(claim.code, claim.stdout).toBe(0);
    expect(claim.json().handoff).toMatchObject({ status: 'claimed', claimed_by: 'bob', claim_ttl: '5s' });

    const second = hub(['context', 'handoff', 'claim', '--id', 'ho-api', '--by', 'carol', '--ttl', '5m']);
    expect(second.code).toBe(1);
    expect(second.json().error).toMatchObject({ code: 'refused', details: { holder: 'bob' } });
    expect(second.json().error.message).toContain("'bob'");

    const beat = hub(['context', 'handoff', 'heartbeat', '--id', 'ho-api', '--by', 'carol', '--ttl', '5m']);
    expect(beat.code).toBe(1);
    expect(beat.json().error.message).toContain("claimed by 'bob', not 'carol'");

    // Lets the 5s claim lapse (a state transition, not a timing assertion): only as long as is left of it after
    // the calls above.
    await sleep(Math.max(0, Date.parse(claim.json().handoff.claim_expires_at) - Date.now() + 50));
    const list = hub(['context', 'handoff', 'list']);
    expect(list.code, list.stdout).toBe(0);
    expect(list.json().released).toEqual(['ho-api']);
    const h = list.json().handoffs.find((x: { id: string }) => x.id === 'ho-api');
    expect(h.status).toBe('open');
    expect(h.events.at(-1)).toMatchObject({ action: 'release-expired', by: 'hub' });

    const retake = hub(['context', 'handoff', 'claim', '--id', 'ho-api', '--by', 'carol']);
    expect(retake.json().handoff).toMatchObject({ claimed_by: 'carol', claim_expires_at: null });
    const done = hub(['context', 'handoff', 'complete', '--id', 'ho-api', '--by', 'carol']);
    expect(done.json().handoff).toMatchObject({ status: 'completed', completed_by: 'carol' });

    const feed = hub(['context', 'events', '--objective', 'auth-rollout']).json();
    expect(feed.events.map((e: { kind: string }) => e.kind)).toEqual(
      expect.arrayContaining(['HandoffCreated', 'HandoffClaimed', 'HandoffReleased', 'HandoffCompleted']),
    );
  });

  it('rejects a malformed TTL naming the value and the rule', () => {
    hub(['context', 'handoff', 'create', '--id', 'ho-ttl', '--title', 'ttl']);
    const r = hub(['context', 'handoff', 'claim', '--id', 'ho-ttl', '--by', 'bob', '--ttl', '10 minutes']);
    expect(r.code).toBe(1);
    expect(r.json().error.message).toContain("'10 minutes'");
    expect(r.json().error.message).toContain('s, m, h or d');
  });
});

describe('context approval', () => {
  it('requests (stdin), lists pending, resolves once', () => {
    const req = hub(['context', 'approval', 'request'], {
      action: 'deploy to prod',
      payload: { service: 'identity' },
      idempotency_key: 'deploy-1',
    });
    expect(req.code, req.stdout).toBe(0);
    const { request } = req.json();
    expect(request).toMatchObject({ action: 'deploy to prod', requested_by: 'agent', status: 'pending' });
    const again = hub(['context', 'approval', 'request'], {
      action: 'deploy to prod',
      idempotency_key: 'deploy-1',
    });
    expect(again.json()).toMatchObject({ created: false, request: { id: request.id } });

    const pending = hub(['context', 'approval', 'list']).json().requests;
    expect(pending.map((r: { id: string }) => r.id)).toEqual([request.id]);

    const res = hub([
      'context',
      'approval',
      'resolve',
      '--id',
      request.id,
      '--decision',
      'approved',
      '--note',
      'ok',
    ]);
    expect(res.code, res.stdout).toBe(0);
    expect(res.json().request).toMatchObject({
      status: 'approved',
      decision: 'approved',
      resolver_note: 'ok',
    });
    expect(hub(['context', 'approval', 'list']).json().requests).toEqual([]);
    expect(hub(['context', 'approval', 'list', '--status', 'all']).json().requests).toHaveLength(1);
    const twice = hub(['context', 'approval', 'resolve', '--id', request.id, '--decision', 'denied']);
    expect(twice.code).toBe(1);
    expect(twice.json().error.code).toBe('refused');
  });
});

describe('context events', () => {
  it('pages with since = next_cursor and rejects an invalid since', () => {
    const first = hub(['context', 'events']);
    expect(first.code, first.stdout).toBe(0);
    const feed = first.json();
    expect(feed).toMatchObject({ ok: true, schema_version: 1, since: null });
    expect(feed.events.length).toBeGreaterThan(0);
    const times = feed.events.map((e: { timestamp: string }) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(feed.next_cursor).toBe(feed.events.at(-1).timestamp);

    const empty = hub(['context', 'events', '--since', feed.next_cursor]).json();
    expect(empty.events).toEqual([]);
    hub(['context', 'objective', 'set', '--id', 'campaign-spring-web', '--title', 'Spring web']);
    const newer = hub(['context', 'events', '--since', feed.next_cursor]).json();
    expect(newer.events.map((e: { kind: string; subject: string }) => `${e.kind} ${e.subject}`)).toEqual([
      'ObjectiveCreated campaign-spring-web',
    ]);
    const camp = hub(['context', 'events', '--campaign', 'spring']).json();
    expect(camp.events.map((e: { subject: string }) => e.subject)).toEqual(['campaign-spring-web']);

    const bad = hub(['context', 'events', '--since', 'last tuesday']);
    expect(bad.code).toBe(1);
    expect(bad.json().error).toMatchObject({ code: 'validation', details: { field: 'since' } });
  });
});
