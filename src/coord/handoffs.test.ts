import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type HubError, NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { createLocalStore, createMemoryStore, type DocumentStore } from '../state/index.js';
import {
  type CoordDeps,
  cancelHandoff,
  claimHandoff,
  completeHandoff,
  createHandoff,
  type Handoff,
  heartbeatHandoff,
  listHandoffs,
} from './index.js';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const BACKENDS: Array<[string, () => { store: DocumentStore; dir?: string }]> = [
  ['memory', () => ({ store: createMemoryStore() })],
  [
    'local',
    () => {
      const root = mkdtempSync(join(tmpdir(), 'hub-handoff-'));
      temps.push(root);
      const dir = join(root, '.hub');
      return { store: createLocalStore({ dir }), dir };
    },
  ],
];

async function refusal(p: Promise<unknown>): Promise<HubError> {
  try {
    await p;
  } catch (err) {
    return err as HubError;
  }
  throw new Error('expected a refusal');
}

describe.each(BACKENDS)('handoffs on the %s store', (_name, make) => {
  const setup = () => {
    const { store, dir } = make();
    let t = Date.parse('2026-03-01T10:00:00.000Z');
    const deps: CoordDeps = { store, retries: 1, now: () => new Date(t) };
    return { deps, dir, tick: (ms: number) => (t += ms) };
  };

  it('creates by append with a generated id, an open status and a create event', async () => {
    const { deps, dir } = setup();
    const h = await createHandoff(deps, { title: ' Finish API ', created_by: 'alice', payload: { pr: 7 } });
    expect(h.id).toMatch(/^ho-[0-9a-f]{12}$/);
    expect(h).toMatchObject({
      title: 'Finish API',
      created_by: 'alice',
      status: 'open',
      payload: { pr: 7 },
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:00:00.000Z',
      events: [{ at: '2026-03-01T10:00:00.000Z', by: 'alice', action: 'create' }],
    });
    const second = await createHandoff(deps, { id: 'h2', title: 'two' });
    expect(second.created_by).toBe('agent');
    expect((await listHandoffs(deps)).handoffs.map((x) => x.id)).toEqual([h.id, 'h2']);
    expect(await refusal(createHandoff(deps, { id: 'h2', title: 'again' }))).toBeInstanceOf(RefusedError);
    expect(await refusal(createHandoff(deps, { title: '  ' }))).toBeInstanceOf(ValidationError);
    if (dir) expect(JSON.parse(readFileSync(join(dir, 'handoffs.json'), 'utf8')).handoffs).toHaveLength(2);
  });

  it('lets one agent hold a claim; a second claimer is refused (409) naming the holder', async () => {
    const { deps } = setup();
    await createHandoff(deps, { id: 'h', title: 't' });
    const c = await claimHandoff(deps, { id: 'h', by: 'bob', ttl: '30m' });
    expect(c).toMatchObject({
      status: 'claimed',
      claimed_by: 'bob',
      claim_ttl: '30m',
      claim_expires_at: '2026-03-01T10:30:00.000Z',
    });
    const err = await refusal(claimHandoff(deps, { id: 'h', by: 'carol', ttl: '5m' }));
    expect(err).toBeInstanceOf(RefusedError);
    expect(err.httpStatus).toBe(409);
    expect(err.message).toContain("claimed by 'bob'");
    expect(err.details).toMatchObject({ holder: 'bob' });
    // the holder may claim again (renewal)
    expect((await claimHandoff(deps, { id: 'h', by: 'bob', ttl: '1h' })).claim_expires_at).toBe(
      '2026-03-01T11:00:00.000Z',
    );
    expect(await refusal(claimHandoff(deps, { id: 'nope', by: 'x' }))).toBeInstanceOf(NotFoundError);
    expect(await refusal(claimHandoff(deps, { id: 'h', by: 'x', ttl: '3 weeks' }))).toBeInstanceOf(
      ValidationError,
    );
  });

  it('heartbeats only for the holder and renews the TTL', async () => {
    const { deps, tick } = setup();
    await createHandoff(deps, { id: 'h', title: 't' });
    expect((await refusal(heartbeatHandoff(deps, { id: 'h', by: 'bob' }))).message).toContain('not claimed');
    await claimHandoff(deps, { id: 'h', by: 'bob', ttl: '10m' });
    const err = await refusal(heartbeatHandoff(deps, { id: 'h', by: 'carol', ttl: '10m' }));
    expect(err).toBeInstanceOf(RefusedError);
    expect(err.message).toContain("claimed by 'bob', not 'carol'");
    tick(5 * 60_000);
    const h = await heartbeatHandoff(deps, { id: 'h', by: 'bob' });
    expect(h.claim_expires_at).toBe('2026-03-01T10:15:00.000Z');
    expect(h.last_heartbeat_at).toBe('2026-03-01T10:05:00.000Z');
    expect((await heartbeatHandoff(deps, { id: 'h', by: 'bob', ttl: '1h' })).claim_expires_at).toBe(
      '2026-03-01T11:05:00.000Z',
    );
    tick(2 * 3_600_000);
    expect((await refusal(heartbeatHandoff(deps, { id: 'h', by: 'bob' }))).message).toContain('expired');
  });

  it('shows an expired claim released on every listing without writing, and the next write records it', async () => {
    const { deps, tick } = setup();
    await createHandoff(deps, { id: 'h', title: 't' });
    await createHandoff(deps, { id: 'forever', title: 'no ttl' });
    await claimHandoff(deps, { id: 'h', by: 'bob', ttl: '1s' });
    await claimHandoff(deps, { id: 'forever', by: 'bob' });
    expect((await listHandoffs(deps)).released).toEqual([]);
    tick(1_000);
    const before = await deps.store.read<{ handoffs: Array<{ id: string; status: string }> }>('handoffs');
    const r = await listHandoffs(deps);
    expect(r.released).toEqual(['h']);
    const h = r.handoffs.find((x) => x.id === 'h')!;
    expect(h.status).toBe('open');
    expect(h.claimed_by).toBeUndefined();
    const released = {
      action: 'release-expired',
      by: 'hub',
      at: '2026-03-01T10:00:01.000Z',
      note: 'claim by bob expired at 2026-03-01T10:00:01.000Z',
    };
    expect(h.events.at(-1)).toEqual(released);
    // a claim without TTL never expires
    tick(400 * 86_400_000);
    const later = await listHandoffs(deps, 'claimed');
    expect(later.handoffs.map((x) => x.id)).toEqual(['forever']);
    expect((await listHandoffs(deps, 'open')).handoffs.map((x) => x.id)).toEqual(['h']);
    // Listing never wrote: the stored document still holds the claim, under the same ETag.
    expect(await deps.store.read('handoffs')).toEqual(before);
    expect(before.value?.handoffs.find((x) => x.id === 'h')?.status).toBe('claimed');
    // The next write of the document records the very release the listings showed (dated at the expiry).
    await createHandoff(deps, { id: 'h3', title: 'another' });
    const stored = (await deps.store.read<{ handoffs: Handoff[] }>('handoffs')).value!;
    const sh = stored.handoffs.find((x) => x.id === 'h')!;
    expect(sh.status).toBe('open');
    expect(sh.events.at(-1)).toEqual(released);
    expect(sh.updated_at).toBe('2026-03-01T10:00:01.000Z');
    expect((await listHandoffs(deps)).released).toEqual([]);
  });

  it('lets another agent claim once the holder lapsed, even before a list', async () => {
    const { deps, tick } = setup();
    await createHandoff(deps, { id: 'h', title: 't' });
    await claimHandoff(deps, { id: 'h', by: 'bob', ttl: '1m' });
    tick(61_000);
    const h = await claimHandoff(deps, { id: 'h', by: 'carol', ttl: '1m' });
    expect(h.claimed_by).toBe('carol');
    expect(h.events.map((e) => e.action)).toEqual(['create', 'claim', 'release-expired', 'claim']);
  });

  it('completes and cancels once; a live claim of another agent blocks completion', async () => {
    const { deps } = setup();
    await createHandoff(deps, { id: 'h', title: 't', created_by: 'alice' });
    await claimHandoff(deps, { id: 'h', by: 'bob', ttl: '1h' });
    expect((await refusal(completeHandoff(deps, { id: 'h', by: 'carol' }))).message).toContain("'bob'");
    const done = await completeHandoff(deps, { id: 'h', by: 'bob', note: 'merged' });
    expect(done).toMatchObject({ status: 'completed', completed_by: 'bob' });
    expect(done.claimed_by).toBeUndefined();
    expect(done.events.at(-1)).toMatchObject({ action: 'complete', by: 'bob', note: 'merged' });
    expect((await refusal(completeHandoff(deps, { id: 'h', by: 'bob' }))).message).toContain('is completed');
    expect(await refusal(claimHandoff(deps, { id: 'h', by: 'bob' }))).toBeInstanceOf(RefusedError);

    await createHandoff(deps, { id: 'k', title: 't', created_by: 'alice' });
    await claimHandoff(deps, { id: 'k', by: 'bob' });
    expect(await refusal(cancelHandoff(deps, { id: 'k', by: 'carol' }))).toBeInstanceOf(RefusedError);
    expect(await cancelHandoff(deps, { id: 'k', by: 'alice' })).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'alice',
    });
  });
});
