import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../infra/index.js';
import { createLocalStore, createMemoryStore, type DocumentStore } from '../state/index.js';
import {
  type CoordDeps,
  claimHandoff,
  createHandoff,
  eventsFeed,
  recordEvent,
  upsertObjective,
} from './index.js';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

function localStore(): { store: DocumentStore; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'hub-events-'));
  temps.push(root);
  const dir = join(root, '.hub');
  return { store: createLocalStore({ dir }), dir };
}

/** Objectives, a claimed handoff and one persisted event, one second apart. */
async function seed(store: DocumentStore): Promise<CoordDeps> {
  let t = Date.parse('2026-03-01T10:00:00.000Z');
  const deps: CoordDeps = { store, retries: 1, now: () => new Date(t) };
  const tick = () => (t += 1000);
  await upsertObjective(deps, { id: 'campaign-q3-web', title: 'Web' }, { root: '/ws' }); // 10:00:00
  tick();
  await upsertObjective(deps, { id: 'solo', title: 'Solo' }, { root: '/ws' }); // 10:00:01
  tick();
  await upsertObjective(deps, { id: 'solo', status: 'in_progress' }, { root: '/ws' }); // 10:00:02
  tick();
  await createHandoff(deps, { id: 'h', title: 'hand', payload: { objective_id: 'solo' } }); // 10:00:03
  tick();
  await claimHandoff(deps, { id: 'h', by: 'bob', ttl: '5m' }); // 10:00:04
  tick();
  await recordEvent(store, { source: 'acl', kind: 'LeaseGranted', subject: 'platform/identity' }, deps.now); // :05
  return deps;
}

describe('events feed', () => {
  it('records every objective and handoff change in coord.events, with a sequence, in order', async () => {
    const { store, dir } = localStore();
    const { now } = await seed(store);
    const feed = await eventsFeed(store, {}, now);
    expect(feed).toMatchObject({ ok: true, schema_version: 1, since: null });
    expect(feed.events.map((e) => `${e.timestamp.slice(17, 19)} ${e.kind} ${e.subject}`)).toEqual([
      '00 ObjectiveCreated campaign-q3-web',
      '01 ObjectiveCreated solo',
      '02 ObjectiveUpdated solo',
      '03 HandoffCreated h',
      '04 HandoffClaimed h',
      '05 LeaseGranted platform/identity',
    ]);
    expect(feed.next_cursor).toBe('2026-03-01T10:00:05.000Z');
    const rec = feed.events.at(-1)!;
    expect(rec).toMatchObject({ source: 'acl', data: {} });
    expect(rec.id).toMatch(/^ev-/);
    // Each change was recorded by the operation that made it: every event has its sequence, and the ids are the
    // ones the derived stream would give (so a change is never listed twice).
    expect(feed.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(feed.events.slice(0, 3).map((e) => e.id)).toEqual([
      'objective:campaign-q3-web:created',
      'objective:solo:created',
      'objective:solo:updated:2026-03-01T10:00:02.000Z',
    ]);
    expect(feed.events[4]).toMatchObject({ id: 'handoff:h:1', data: { action: 'claim', by: 'bob' } });
    // One line per event in the log's segment, each with its sequence.
    const lines = readFileSync(join(dir, 'coord.events.log', `${'1'.padStart(16, '0')}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).seq);
    expect(lines).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('derives, without a sequence, the changes nothing recorded (a raw document write), and lists them once', async () => {
    const { store } = localStore();
    const { now } = await seed(store);
    const { value, etag = '' } = await store.read('objectives');
    const objectives = (value as { objectives: object[] }).objectives;
    const raw = {
      id: 'raw',
      title: 'Raw',
      status: 'pending',
      repos: [],
      created_at: '2026-03-01T10:00:03.500Z',
    };
    await store.write(
      'objectives',
      { objectives: [...objectives, { ...raw, updated_at: raw.created_at }] },
      etag,
    );
    const feed = await eventsFeed(store, {}, now);
    expect(feed.events.map((e) => `${e.seq ?? '-'} ${e.kind} ${e.subject}`)).toEqual([
      '1 ObjectiveCreated campaign-q3-web',
      '2 ObjectiveCreated solo',
      '3 ObjectiveUpdated solo',
      '4 HandoffCreated h',
      '- ObjectiveCreated raw',
      '5 HandoffClaimed h',
      '6 LeaseGranted platform/identity',
    ]);
    // By sequence only recorded events count: the raw write is not in that feed.
    expect((await eventsFeed(store, { after_seq: 3 }, now)).events.map((e) => e.seq)).toEqual([4, 5, 6]);
  });

  it('records two updates of one objective in one millisecond as two events with distinct ids', async () => {
    const { store } = localStore();
    const deps: CoordDeps = { store, retries: 1, now: () => new Date('2026-03-01T10:00:00.000Z') };
    await upsertObjective(deps, { id: 'o', title: 'O' }, { root: '/ws' });
    await upsertObjective(deps, { id: 'o', status: 'in_progress' }, { root: '/ws' });
    await upsertObjective(deps, { id: 'o', status: 'done' }, { root: '/ws' });
    const feed = await eventsFeed(store);
    expect(feed.events.map((e) => [e.seq, e.id, e.data.status])).toEqual([
      [1, 'objective:o:created', 'pending'],
      [2, 'objective:o:updated:2026-03-01T10:00:00.000Z', 'in_progress'],
      [3, 'objective:o:updated:2026-03-01T10:00:00.000Z~2', 'done'],
    ]);
  });

  it('returns only newer events when the cursor is passed back as since (exclusive)', async () => {
    const { store } = localStore();
    const { now } = await seed(store);
    const page = await eventsFeed(store, { since: '2026-03-01T10:00:02.000Z' }, now);
    expect(page.events.map((e) => e.kind)).toEqual(['HandoffCreated', 'HandoffClaimed', 'LeaseGranted']);
    const next = await eventsFeed(store, { since: page.next_cursor! }, now);
    expect(next.events).toEqual([]);
    expect(next.next_cursor).toBe(page.next_cursor);
    await recordEvent(store, { source: 'acl', kind: 'LeaseExpired', timestamp: '2026-03-01T10:00:09.000Z' });
    expect((await eventsFeed(store, { since: page.next_cursor! }, now)).events.map((e) => e.kind)).toEqual([
      'LeaseExpired',
    ]);
  });

  it('filters by objective (subject or data.objective_id) and by campaign prefix', async () => {
    const { store } = localStore();
    const { now } = await seed(store);
    const solo = await eventsFeed(store, { objective: 'solo' }, now);
    expect(solo.events.map((e) => e.kind)).toEqual([
      'ObjectiveCreated',
      'ObjectiveUpdated',
      'HandoffCreated',
      'HandoffClaimed',
    ]);
    const camp = await eventsFeed(store, { campaign: 'q3' }, now);
    expect(camp.events.map((e) => e.subject)).toEqual(['campaign-q3-web']);
    expect((await eventsFeed(store, { campaign: 'q' })).events).toEqual([]);
  });

  it('shows an expired claim as a HandoffReleased event at its expiry, before anything is written', async () => {
    const { store } = localStore();
    const { now } = await seed(store);
    const cursor = (await eventsFeed(store, {}, now)).next_cursor!;
    const stored = await store.read('handoffs');
    const later = () => new Date(Date.parse('2026-03-01T10:06:00.000Z'));
    const feed = await eventsFeed(store, { since: cursor }, later);
    expect(feed.events.map((e) => `${e.timestamp} ${e.kind} ${e.subject}`)).toEqual([
      '2026-03-01T10:05:04.000Z HandoffReleased h',
    ]);
    expect(feed.events[0]?.data).toMatchObject({
      action: 'release-expired',
      by: 'hub',
      objective_id: 'solo',
    });
    expect(await store.read('handoffs')).toEqual(stored);
    // The next write of the document records the release (same id, dated at the expiry), then its own change.
    await createHandoff({ store, retries: 1, now: later }, { id: 'h2', title: 'next' });
    const bySeq = await eventsFeed(store, { after_seq: 6 }, later);
    expect(bySeq.events.map((e) => `${e.seq} ${e.id} ${e.timestamp}`)).toEqual([
      `7 ${feed.events[0]!.id} 2026-03-01T10:05:04.000Z`,
      '8 handoff:h2:0 2026-03-01T10:06:00.000Z',
    ]);
    const all = (await eventsFeed(store, {}, later)).events.map((e) => e.id);
    expect(all.filter((id) => id === feed.events[0]!.id)).toHaveLength(1);
  });

  it('rejects a since that is not an ISO timestamp', async () => {
    const { store } = localStore();
    await expect(eventsFeed(store, { since: 'yesterday' })).rejects.toBeInstanceOf(ValidationError);
    await expect(eventsFeed(store, { since: '2026-13-45T99:00:00Z' })).rejects.toThrow(/since: '2026-13-45/);
    expect((await eventsFeed(store, { since: '2026-03-01' })).since).toBe('2026-03-01');
  });

  it('on the memory store serves only the persisted coord.events: recorded changes, nothing derived', async () => {
    const store = createMemoryStore();
    await seed(store);
    const { value, etag = '' } = await store.read('objectives');
    const objectives = (value as { objectives: Array<Record<string, unknown>> }).objectives;
    await store.write('objectives', { objectives: [...objectives, { ...objectives[0], id: 'raw' }] }, etag);
    const feed = await eventsFeed(store);
    expect(feed.events.map((e) => e.kind)).toEqual([
      'ObjectiveCreated',
      'ObjectiveCreated',
      'ObjectiveUpdated',
      'HandoffCreated',
      'HandoffClaimed',
      'LeaseGranted',
    ]);
    expect(feed.events.some((e) => e.subject === 'raw')).toBe(false);
  });
});
