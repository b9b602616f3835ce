// Granular coordination writes through the http state backend: they run on the server's route for the same
// operation (applied atomically there), with the client's own work (notes file, repository paths) done first; a
// server that keeps only the spec's contract still gets them, by whole-document compare-and-swap; handoff create
// appends a whole item through the spec's POST /v3/ops/handoffs; and GET /v3/ops/handoffs lists what every other
// surface lists.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { type HubError, NotFoundError, RefusedError } from '../src/infra/index.js';
import { createContext, invoke, loadOperations } from '../src/ops/index.js';
import { etagOf } from '../src/state/index.js';
import { type ContractServer, startContractServer } from './fixtures/contract-server.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';

const OPS = await loadOperations();

let dir: string;
let client: { root: string; manifestPath: string };
let server: { root: string; manifestPath: string };
let srv: RunningServer;
let contract: ContractServer;

beforeAll(async () => {
  dir = createTempDir('hub-http-writers-');
  client = createDemo(join(dir, 'client'));
  server = createDemo(join(dir, 'server'));
  // No compare-and-swap retries on the client: a write the server applies never needs one.
  writeFileSync(join(client.root, 'hub.config.yaml'), 'state:\n  conflict_retries: 0\n');
  srv = await startTestServer({ root: server.root });
  contract = await startContractServer();
});
afterAll(async () => {
  await srv?.close();
  await contract?.close();
  removeTempDir(dir);
});

/** Runs an operation as a CLI process of the client workspace would, with its state on `base`. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever result the operation returned.
async function run(base: string, id: string, input: Record<string, unknown>): Promise<any> {
  const op = OPS.find((o) => o.id === id)!;
  const env = { HUB_CACHE_DIR: 'off', HUB_STATE_BACKEND: 'http', HUB_STATE_URL: base };
  const ctx = createContext({ cwd: client.root, env, definition: client.manifestPath });
  return invoke(op, ctx, input);
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err as HubError,
  );

const stored = <T>(name: string): T =>
  JSON.parse(readFileSync(join(server.root, '.hub', `${name}.json`), 'utf8'));

describe('through a hub server: the server applies each granular write', () => {
  it('does the client-side work first: the notes file and repository paths are the client workspace’s', async () => {
    const notes = join(client.root, 'notes.txt');
    writeFileSync(notes, 'read on the client\n');
    const repo = join(client.root, 'platform', 'identity');
    const r = await run(srv.base, 'context.objective.set', {
      id: 'remote',
      title: 'Remote',
      repos: [repo],
      notes_file: notes,
      left_off: 'here',
    });
    expect(r).toMatchObject({ created: true, objective: { id: 'remote', repos: ['./platform/identity'] } });
    expect(r.objective.agent_notes).toMatch(/left off: here\n.*notes: read on the client$/);
    const paused = await run(srv.base, 'context.pause', { id: 'remote', repo: ['x/y'], next: 'more' });
    expect(paused.objective).toMatchObject({ status: 'in_progress', repos: ['./platform/identity', 'x/y'] });
    const edited = await run(srv.base, 'context.objective.edit', {
      id: 'remote',
      field: 'repos',
      value: repo,
    });
    expect(edited.objective.repos).toEqual(['./platform/identity']);
    expect(stored<{ objectives: unknown[] }>('objectives').objectives).toEqual([edited.objective]);
  });

  it('gives exactly one of 8 concurrent claimers the handoff, the others refused naming the holder, none a conflict', async () => {
    const h = await run(srv.base, 'context.handoff.create', { title: 'Contested', created_by: 'alice' });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        run(srv.base, 'context.handoff.claim', { id: h.id, by: `agent-${i}`, ttl: '10m' }),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as HubError] : []));
    expect(won).toHaveLength(1);
    const holder = (won[0] as PromiseFulfilledResult<{ handoff: { claimed_by: string } }>).value.handoff
      .claimed_by;
    expect(lost).toHaveLength(7);
    for (const e of lost) {
      expect(e, e.message).toBeInstanceOf(RefusedError);
      expect(e.details).toMatchObject({ rule: 'single_holder', holder });
    }
    const beat = await run(srv.base, 'context.handoff.heartbeat', { id: h.id, by: holder, ttl: '20m' });
    expect(beat.handoff.events.at(-1)).toMatchObject({ action: 'heartbeat', by: holder });
    const done = await run(srv.base, 'context.handoff.complete', { id: h.id, by: holder, note: 'shipped' });
    expect(done.handoff).toMatchObject({ status: 'completed', completed_by: holder });
    const other = await run(srv.base, 'context.handoff.create', { id: 'to-cancel', title: 'Drop' });
    expect(
      (await run(srv.base, 'context.handoff.cancel', { id: other.id, by: 'agent' })).handoff.status,
    ).toBe('cancelled');
    expect(stored<{ handoffs: Array<{ id: string; status: string }> }>('handoffs').handoffs).toMatchObject([
      { id: h.id, status: 'completed' },
      { id: 'to-cancel', status: 'cancelled' },
    ]);
  });

  it('answers an unknown id with the server’s own not-found, without falling back', async () => {
    const err = await failure(run(srv.base, 'context.handoff.claim', { id: 'nope', by: 'x' }));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.details).toMatchObject({ field: 'id', value: 'nope', remote_status: 404 });
  });

  it('requests and resolves approvals on the server, recording the events there', async () => {
    const req = await run(srv.base, 'context.approval.request', { action: 'deploy', idempotency_key: 'k1' });
    expect(req.created).toBe(true);
    const again = await run(srv.base, 'context.approval.request', {
      action: 'deploy',
      idempotency_key: 'k1',
    });
    expect(again).toEqual({ created: false, request: req.request });
    const res = await run(srv.base, 'context.approval.resolve', { id: req.request.id, decision: 'approved' });
    expect(res.request.status).toBe('approved');
    // In the server's events log (one JSON line per event).
    const logDir = join(server.root, '.hub', 'coord.events.log');
    const kinds = readdirSync(logDir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .flatMap((f) => readFileSync(join(logDir, f), 'utf8').trim().split('\n'))
      .map((l) => JSON.parse(l) as { kind: string; source: string })
      .filter((e) => e.source === 'approval')
      .map((e) => e.kind);
    expect(kinds).toEqual(['ApprovalRequested', 'ApprovalResolved']);
  });
});

describe('through a server that keeps only the contract', () => {
  it('creates a handoff by appending one whole item to POST /v3/ops/handoffs', async () => {
    contract.requests.length = 0;
    const h = await run(contract.base, 'context.handoff.create', {
      id: 'c1',
      title: 'Hand over',
      note: 'why',
    });
    expect(contract.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v3/ops/handoffs']);
    const item = contract.requests[0]!.body;
    expect(item).toEqual(h);
    expect(h).toMatchObject({ id: 'c1', status: 'open', events: [{ action: 'create', note: 'why' }] });
    // What the contract server stored is a whole handoff: hub lists it.
    expect((await run(contract.base, 'context.handoff.list', {})).handoffs).toEqual([h]);
  });

  it('applies a write the server has no route for by whole-document compare-and-swap', async () => {
    contract.requests.length = 0;
    const claim = await run(contract.base, 'context.handoff.claim', { id: 'c1', by: 'bob', ttl: '5m' });
    expect(claim.handoff).toMatchObject({ status: 'claimed', claimed_by: 'bob' });
    expect(contract.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v3/ops/handoffs/c1/claim',
      'GET /v3/ops/handoffs',
      'PUT /v3/ops/handoffs',
      'POST /v3/ops/state/coord.events/events',
    ]);
    const set = await run(contract.base, 'context.objective.set', { id: 'o1', title: 'On contract' });
    expect(set.created).toBe(true);
    expect(contract.docs.get('objectives')).toEqual({ objectives: [set.objective] });
    // Such a server has no route to record events (the contract's events document is read-only): the write
    // stands, and the change is not recorded anywhere else (that server's feed derives it, as the spec says).
    expect(contract.requests.filter((r) => r.path.includes('coord.events'))).toHaveLength(2);
    expect(contract.docs.has('coord.events')).toBe(false);
  });
});

describe('GET /v3/ops/handoffs lists what every surface lists', () => {
  it('shows an expired claim released under the stored ETag, never writes, and the next PUT matches', async () => {
    const doc = {
      handoffs: [
        {
          id: 'lapsed',
          title: 'Lapsed',
          created_by: 'a',
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
          status: 'claimed',
          payload: {},
          claimed_by: 'bob',
          claim_ttl: '1m',
          claim_expires_at: '2026-01-01T00:01:00.000Z',
          events: [{ at: '2026-01-01T00:00:00.000Z', by: 'bob', action: 'claim' }],
        },
      ],
    };
    const cur = await call(srv.base, 'GET', '/v3/ops/handoffs');
    const put = await call(srv.base, 'PUT', '/v3/ops/handoffs', {
      body: doc,
      headers: { 'if-match': cur.headers.get('etag') ?? '""' },
    });
    expect(put.status).toBe(200);
    const file = join(server.root, '.hub', 'handoffs.json');
    const bytes = readFileSync(file, 'utf8');

    const got = await call(srv.base, 'GET', '/v3/ops/handoffs');
    expect(got.headers.get('etag')).toBe(etagOf(doc));
    const shown = got.json.handoffs[0];
    expect(shown).toMatchObject({ status: 'open', updated_at: '2026-01-01T00:01:00.000Z' });
    expect(shown.claimed_by).toBeUndefined();
    expect(shown.events.at(-1)).toMatchObject({ action: 'release-expired', at: '2026-01-01T00:01:00.000Z' });
    // The same view on the list operation (HTTP with a query, the CLI).
    const listed = await call(srv.base, 'GET', '/v3/ops/handoffs?status=open');
    expect(listed.json.handoffs).toEqual(got.json.handoffs);
    const cli = runHub(['-c', server.manifestPath, 'context', 'handoff', 'list', '--json']);
    expect(cli.json().handoffs).toEqual(got.json.handoffs);
    // A cached copy of the stored bytes is not what is shown: no 304.
    const again = await call(srv.base, 'GET', '/v3/ops/handoffs', {
      headers: { 'if-none-match': etagOf(doc)! },
    });
    expect(again.status).toBe(200);
    expect(readFileSync(file, 'utf8')).toBe(bytes);
    // Compare-and-swap protects the stored version: the ETag of the listing replaces it.
    const next = await call(srv.base, 'PUT', '/v3/ops/handoffs', {
      body: got.json,
      headers: { 'if-match': got.headers.get('etag')! },
    });
    expect(next.status).toBe(200);
    // The file also carries the outbox of the document's recorded changes (local-outbox.ts), never served.
    const { 'hub:outbox': _outbox, ...stored } = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored).toEqual(got.json);
  });
});
