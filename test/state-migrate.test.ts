// `hub state migrate` and `hub state init` through the real CLI: local -> dynamodb (dynalite on loopback) ->
// local again gives back every document with its ETag; a repeated migration changes nothing; a target that
// differs is refused unless --overwrite. Also: the CLI on the dynamodb backend, `hub state info`, and the
// workspace config that may not name a DynamoDB endpoint.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLocalStore,
  type DocumentStore,
  KNOWN_COLLECTIONS,
  storedDocumentNames,
} from '../src/state/index.js';
import { dynaliteStore, type RunningDynalite, startDynalite } from './fixtures/dynalite.js';
import { type BuiltWorkspace, buildWorkspace, removeTempDir } from './fixtures/index.js';
import { callJson, connectHub } from './mcp-client.js';
import { runHubAsync } from './run-hub-async.js';

let d: RunningDynalite;
let ws: BuiltWorkspace;
const IDS = { HUB_STATE_ORG_ID: 'acme', HUB_STATE_WORKSPACE_ID: 'migrate-ws' };

beforeAll(async () => {
  d = await startDynalite();
  ws = buildWorkspace({ projects: [{ name: 'p', repos: [{ name: 'r', files: { 'README.md': 'x\n' } }] }] });
});
afterAll(async () => {
  await d?.close();
  if (ws) removeTempDir(ws.root);
});

const hub = (args: string[], env: Record<string, string> = {}) =>
  runHubAsync(['-c', ws.manifestPath, ...args, '--json'], { env: { ...d.env, ...IDS, ...env } });

/** name -> ETag of every document a store holds. */
async function etags(store: DocumentStore): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of await storedDocumentNames(store)) {
    const { etag } = await store.read(name);
    if (etag) out[name] = etag;
  }
  return out;
}

describe('hub state init', () => {
  it('creates the table once, then reports it existing; state info shows table, region and endpoint', async () => {
    const before = await hub(['state', 'info'], { HUB_STATE_BACKEND: 'dynamodb' });
    expect(before.code, before.stderr).toBe(0);
    expect(before.json()).toMatchObject({
      backend: 'dynamodb',
      org_id: 'acme',
      workspace_id: 'migrate-ws',
      location: 'dynamodb table hub_state',
      details: {
        table: 'hub_state',
        region: 'us-east-1',
        endpoint: d.endpoint,
        table_status: 'missing',
        fix: expect.stringContaining('hub state init'),
      },
    });
    // Any other command names the fix too.
    const refused = await hub(['context', 'objective', 'list'], { HUB_STATE_BACKEND: 'dynamodb' });
    expect(refused.code).toBe(1);
    expect(refused.json().error).toMatchObject({
      code: 'refused',
      message: expect.stringContaining('hub state init'),
      details: { rule: 'dynamodb_table_exists' },
    });

    const first = await hub(['state', 'init'], { HUB_STATE_BACKEND: 'dynamodb' });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.json()).toMatchObject({ backend: 'dynamodb', status: 'created', table: 'hub_state' });
    expect(first.stderr).toBe('');
    const again = await hub(['state', 'init'], { HUB_STATE_BACKEND: 'dynamodb' });
    expect(again.json()).toMatchObject({ status: 'existing' });
    const after = await hub(['state', 'info'], { HUB_STATE_BACKEND: 'dynamodb' });
    expect(after.json().details).toMatchObject({ table_status: 'ACTIVE' });
  });

  it('hub://gate/status reports table, region and endpoint with its credentials redacted; hub_state_init answers', async () => {
    const [scheme, rest] = d.endpoint.split('//');
    const endpoint = `${scheme}//user:endpoint-secret-1234@${rest}/?token=query-secret-5678`;
    const client = await connectHub(ws.root, [], {
      ...d.env,
      ...IDS,
      HUB_STATE_BACKEND: 'dynamodb',
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    });
    try {
      const res = await client.readResource({ uri: 'hub://gate/status' });
      const text = (res.contents[0] as { text: string }).text;
      expect(text).not.toContain('endpoint-secret');
      expect(text).not.toContain('query-secret');
      expect(JSON.parse(text).state_backend).toMatchObject({
        backend: 'dynamodb',
        location: 'dynamodb table hub_state',
        details: { table: 'hub_state', region: 'us-east-1', endpoint: expect.stringContaining('user:***') },
      });
      expect(await callJson(client, 'hub_state_init')).toMatchObject({
        backend: 'dynamodb',
        table: 'hub_state',
      });
    } finally {
      await client.close();
    }
  });

  it('answers on a backend with nothing to create', async () => {
    const r = await hub(['state', 'init']);
    expect(r.json()).toMatchObject({ backend: 'local', status: 'existing', note: 'nothing to create' });
  });

  it('refuses state.dynamodb.endpoint from a workspace config (requests are signed with your credentials)', async () => {
    const file = join(ws.root, 'hub.config.yaml');
    writeFileSync(file, 'state:\n  backend: dynamodb\n  dynamodb:\n    endpoint: http://127.0.0.1:9/\n');
    try {
      const r = await hub(['state', 'info']);
      expect(r.code).toBe(1);
      expect(JSON.stringify(r.json())).toContain('state.dynamodb.endpoint');
    } finally {
      rmSync(file);
    }
  });
});

describe('hub state migrate', () => {
  it('local -> dynamodb -> local gives back every document with its ETag; again changes nothing', async () => {
    // Real records through the CLI (local backend)...
    for (const args of [
      ['context', 'objective', 'set', '--id', 'o1', '--title', 'First'],
      ['context', 'handoff', 'create', '--id', 'h1', '--title', 'Take over'],
      ['context', 'handoff', 'claim', '--id', 'h1', '--by', 'agent-a', '--ttl', '1h'],
      ['claim', 'declare', '--repository', 'p/r', '--agent-id', 'agent-a', '--pattern', 'src/**'],
      ['lease', 'acquire', '--repository', 'p/r', '--agent-id', 'agent-a', '--task-id', 't1'],
    ]) {
      const r = await hub(args);
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    // ...and one document in every known collection, written as files of the local backend.
    const local = createLocalStore({ dir: join(ws.root, '.hub') });
    for (const c of KNOWN_COLLECTIONS) {
      const name = `${c}/k-${c}`;
      if ((await local.read(name)).etag === undefined) await local.write(name, { c, n: [1, 'é'] }, '""');
    }
    await local.write('approvals', { requests: [] }, (await local.read('approvals')).etag ?? '""');
    const original = await etags(local);
    expect(Object.keys(original).length).toBeGreaterThan(KNOWN_COLLECTIONS.length + 3);

    const out = await hub(['state', 'migrate', '--from', 'local', '--to', 'dynamodb']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const n = Object.keys(original).length;
    expect(out.json()).toMatchObject({ documents: n, copied: n, unchanged: 0, verified: n, target_only: 0 });
    const remote = dynaliteStore(d, { orgId: 'acme', workspaceId: 'migrate-ws' });
    expect(await etags(remote)).toEqual(original);

    // Resumable and idempotent: a second run finds everything in place.
    const again = await hub(['state', 'migrate', '--from', 'local', '--to', 'dynamodb']);
    expect(again.json()).toMatchObject({ documents: n, copied: 0, unchanged: n, verified: n });

    // Back into an empty local store: the same documents, the same ETags.
    rmSync(join(ws.root, '.hub'), { recursive: true, force: true });
    const back = await hub(['state', 'migrate', '--from', 'dynamodb', '--to', 'local']);
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(back.json()).toMatchObject({ documents: n, copied: n, verified: n });
    expect(await etags(createLocalStore({ dir: join(ws.root, '.hub') }))).toEqual(original);

    // The CLI works on the migrated documents in dynamodb.
    const list = await hub(['context', 'objective', 'list'], { HUB_STATE_BACKEND: 'dynamodb' });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.stringify(list.json())).toContain('"o1"');
    await remote.close?.();
  });

  it('refuses a target that differs before writing anything; --overwrite replaces, never deletes', async () => {
    const local = createLocalStore({ dir: join(ws.root, '.hub') });
    const remote = dynaliteStore(d, { orgId: 'acme', workspaceId: 'migrate-ws' });
    const cur = await local.read<{ objectives: unknown[] }>('objectives');
    await local.write('objectives', { objectives: [] }, cur.etag!);
    await remote.write('claims/only-remote', { claims: [] }, '""');
    const remoteBefore = await etags(remote);

    const refused = await hub(['state', 'migrate', '--from', 'local', '--to', 'dynamodb']);
    expect(refused.code).toBe(1);
    expect(refused.json().error).toMatchObject({
      code: 'refused',
      message: expect.stringContaining('--overwrite'),
      details: { differing: 1, target_only: 1, rule: 'target_empty' },
    });
    expect(await etags(remote)).toEqual(remoteBefore);

    const forced = await hub(['state', 'migrate', '--from', 'local', '--to', 'dynamodb', '--overwrite']);
    expect(forced.code, forced.stdout).toBe(0);
    expect(forced.json()).toMatchObject({ overwritten: 1, copied: 0, target_only: 1 });
    expect((await remote.read('objectives')).value).toEqual({ objectives: [] });
    expect((await remote.read('claims/only-remote')).value).toEqual({ claims: [] });

    const same = await hub(['state', 'migrate', '--from', 'local', '--to', 'local']);
    expect(same.json().error).toMatchObject({ code: 'validation', details: { rule: 'different_backends' } });
    await remote.close?.();
  });
});
