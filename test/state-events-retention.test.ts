// The retention of the events log (`state.events.retain_count` / `retain_days`) reaches the store: set in the
// user config or a file given with --appconfig, it bounds the log when events are recorded through the CLI or
// through an operation of a hub server (real files, the local store). A hub.config.yaml that came with the
// workspace may not set it: lowering it would erase history other agents rely on (docs/decisions.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStore } from '../src/state/index.js';
import { type BuiltWorkspace, buildWorkspace, createTempDir, removeTempDir } from './fixtures/index.js';
import { call, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';

let tmp: string;
let n = 0;
beforeAll(() => {
  tmp = createTempDir('hub-events-retention-');
});
afterAll(() => removeTempDir(tmp));

const DAY = 86_400_000;

/** A workspace whose log holds `count` events dated `ageDays` ago, in full segments of 1,000; its user config. */
async function workspace(count: number, ageDays = 0): Promise<{ ws: BuiltWorkspace; user: string }> {
  const ws = buildWorkspace({
    projects: [{ name: 'p', repos: [{ name: 'r', files: { 'README.md': 'x\n' } }] }],
  });
  const user = join(tmp, `user${n++}`);
  mkdirSync(user, { recursive: true });
  const at = new Date(Date.now() - ageDays * DAY).toISOString();
  const events = Array.from({ length: count }, (_, i) => ({
    id: `old-${i}`,
    timestamp: at,
    source: 'test',
    kind: 'Tick',
    data: {},
    seq: i + 1,
  }));
  await createLocalStore({ dir: join(ws.root, '.hub') }).events!.import!(events);
  return { ws, user };
}

/** `hub context objective set` (its change is recorded in the log), with the given user config folder. */
function objectiveSet(ws: BuiltWorkspace, user: string, extra: string[] = []) {
  return runHub(
    ['-c', ws.manifestPath, ...extra, 'context', 'objective', 'set', '--id', 'o', '--title', 'O', '--json'],
    {
      env: { HUB_CONFIG_DIR: user },
    },
  );
}

const logOf = async (ws: BuiltWorkspace) =>
  createLocalStore({ dir: join(ws.root, '.hub') }).events!.read({ after: 0, limit: 1 });

describe('events log retention from the application config', () => {
  it('keeps everything by default: 2,000 events and one more, nothing compacted', async () => {
    const { ws, user } = await workspace(2000);
    const r = objectiveSet(ws, user);
    expect(r.code, r.stderr).toBe(0);
    expect(await logOf(ws)).toMatchObject({ first_seq: 1, last_seq: 2001 });
    removeTempDir(ws.root);
  });

  it('retain_count in the user config bounds the log when the CLI records an event', async () => {
    const { ws, user } = await workspace(2000);
    writeFileSync(join(user, 'config.yml'), 'state:\n  events:\n    retain_count: 100\n');
    const r = objectiveSet(ws, user);
    expect(r.code, r.stderr).toBe(0);
    // The append of 2,001 started a segment; the segment 1..1,000 is past the newest 100 and went whole.
    expect(await logOf(ws)).toMatchObject({ first_seq: 1001, last_seq: 2001 });
    removeTempDir(ws.root);
  });

  it('retain_days in the user config bounds the log, never below the newest 5,000', async () => {
    const { ws, user } = await workspace(7000, 10);
    writeFileSync(join(user, 'config.yml'), 'state:\n  events:\n    retain_days: 1\n');
    const r = objectiveSet(ws, user);
    expect(r.code, r.stderr).toBe(0);
    // Events 10 days old, past 1 day: what goes stops at the newest 5,000 (whole segments: 1..2,000).
    expect(await logOf(ws)).toMatchObject({ first_seq: 2001, last_seq: 7001 });
    removeTempDir(ws.root);
  });

  it('the same 10-day-old events stay under the default of 30 days', async () => {
    const { ws, user } = await workspace(7000, 10);
    const r = objectiveSet(ws, user);
    expect(r.code, r.stderr).toBe(0);
    expect(await logOf(ws)).toMatchObject({ first_seq: 1, last_seq: 7001 });
    removeTempDir(ws.root);
  });

  it('a file given with --appconfig sets it', async () => {
    const { ws, user } = await workspace(2000);
    const file = join(tmp, `explicit${n++}.yaml`);
    writeFileSync(file, 'state:\n  events:\n    retain_count: 100\n');
    const r = objectiveSet(ws, user, ['--appconfig', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(await logOf(ws)).toMatchObject({ first_seq: 1001, last_seq: 2001 });
    removeTempDir(ws.root);
  });

  it("a workspace's hub.config.yaml may not set it: refused naming the key, the file, the line and the rule; nothing recorded", async () => {
    const { ws, user } = await workspace(2000);
    writeFileSync(join(ws.root, 'hub.config.yaml'), 'state:\n  events:\n    retain_count: 100\n');
    const r = objectiveSet(ws, user);
    expect(r.code).not.toBe(0);
    const err = JSON.parse(r.stdout || r.stderr).error ?? JSON.parse(r.stdout || r.stderr);
    expect(err).toMatchObject({
      code: 'refused',
      details: {
        key: 'state.events.retain_count',
        file: join(ws.root, 'hub.config.yaml'),
        line: 3,
        rule: 'workspace_config_trusted_key',
      },
    });
    expect(await logOf(ws)).toMatchObject({ first_seq: 1, last_seq: 2000 });
    // The user config's retention applies in that workspace (its trusted keys are taken from there).
    writeFileSync(join(ws.root, 'hub.config.yaml'), 'api_version: from-ws\n');
    writeFileSync(join(user, 'config.yml'), 'state:\n  events:\n    retain_count: 100\n    retain_days: 7\n');
    const ok = objectiveSet(ws, user);
    expect(ok.code, ok.stderr).toBe(0);
    expect(await logOf(ws)).toMatchObject({ first_seq: 1001, last_seq: 2001 });
    removeTempDir(ws.root);
  });

  it("a hub server's operations record under the retention of the config it was started with", async () => {
    const { ws } = await workspace(2000);
    const file = join(tmp, `server${n++}.yaml`);
    writeFileSync(file, 'state:\n  events:\n    retain_count: 100\n');
    const srv = await startTestServer({ root: ws.root, appconfig: file });
    try {
      const r = await call(srv.base, 'POST', '/v3/ops/objectives', { body: { id: 'o', title: 'O' } });
      expect(r.status, r.text).toBeLessThan(300);
    } finally {
      await srv.close();
    }
    expect(await logOf(ws)).toMatchObject({ first_seq: 1001, last_seq: 2001 });
    removeTempDir(ws.root);
  });
});
