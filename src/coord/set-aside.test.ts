// One stored record that breaks its schema (a hand edit, another tool) is set aside: left out of what is served,
// reported with its path and rule, and kept exactly where it is stored by every write of the rest.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type HubError, RefusedError } from '../infra/index.js';
import { createMemoryStore, type DocumentStore } from '../state/index.js';
import { approvalListing, requestApproval } from './approvals.js';
import { recordEvent } from './change-events.js';
import type { CoordDeps } from './documents.js';
import { eventsFeed } from './events.js';
import { claimHandoff, listHandoffs } from './handoffs.js';
import { editObjective, listObjectives, objectiveListing, upsertObjective } from './objectives.js';
import { parseWithSetAside, type SetAsideRecord } from './set-aside.js';

const T = '2026-01-01T00:00:00.000Z';
const objective = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: id,
  status: 'pending',
  repos: [],
  created_at: T,
  updated_at: T,
  ...extra,
});
const handoff = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: id,
  created_by: 'a',
  created_at: T,
  updated_at: T,
  status: 'open',
  payload: {},
  events: [],
  ...extra,
});

function deps(store: DocumentStore): CoordDeps & { reported: SetAsideRecord[] } {
  const reported: SetAsideRecord[] = [];
  return {
    store,
    retries: 1,
    now: () => new Date('2026-02-01T00:00:00.000Z'),
    report: (r) => reported.push(...r),
    reported,
  };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err as HubError,
  );

describe('a record that breaks its schema', () => {
  it('objectives: served without it, reported with path and rule, and kept in place by writes of the rest', async () => {
    const store = createMemoryStore();
    const bad = objective('bad', { status: 'bogus', note: 'kept as typed' });
    await store.write('objectives', { objectives: [objective('a'), bad, objective('b')] }, '""');
    const d = deps(store);

    expect((await listObjectives(d)).map((o) => o.id)).toEqual(['a', 'b']);
    const listing = await objectiveListing(d);
    expect(listing.set_aside).toEqual([
      expect.objectContaining({
        document: 'objectives',
        record: 'objectives[1]',
        field: 'objectives[1].status',
        rule: 'invalid_value',
        id: 'bad',
      }),
    ]);
    expect(d.reported.length).toBeGreaterThan(0);

    await upsertObjective(d, { id: 'c', title: 'C' }, { root: '/w' });
    await editObjective(d, 'b', { status: 'done' }, '/w');
    const stored = (await store.read<{ objectives: Array<{ id: string; status: string }> }>('objectives'))
      .value!;
    expect(stored.objectives.map((o) => o.id)).toEqual(['a', 'bad', 'b', 'c']);
    expect(stored.objectives[1]).toEqual(bad);
    expect(stored.objectives[2]!.status).toBe('done');

    // The record set aside is not found, and not made again under its id: it is named, for repair.
    for (const attempt of [
      editObjective(d, 'bad', { status: 'done' }, '/w'),
      upsertObjective(d, { id: 'bad', title: 'again' }, { root: '/w' }),
    ]) {
      const err = await failure(attempt);
      expect(err).toBeInstanceOf(RefusedError);
      expect(err.details).toMatchObject({
        rule: 'record_set_aside',
        id: 'bad',
        field: 'objectives[1].status',
      });
    }
    expect((await store.read<{ objectives: unknown[] }>('objectives')).value!.objectives[1]).toEqual(bad);
  });

  it('handoffs: a handoff without a title is set aside; the others list and claim', async () => {
    const store = createMemoryStore();
    const { title: _t, ...untitled } = handoff('ho-bad');
    await store.write('handoffs', { handoffs: [handoff('ho-1'), untitled] }, '""');
    const d = deps(store);
    const listed = await listHandoffs(d);
    expect(listed.handoffs.map((h) => h.id)).toEqual(['ho-1']);
    expect(listed.set_aside?.[0]).toMatchObject({ field: 'handoffs[1].title', id: 'ho-bad' });
    await claimHandoff(d, { id: 'ho-1', by: 'agent' });
    const stored = (await store.read<{ handoffs: Array<{ id: string; status: string }> }>('handoffs')).value!;
    expect(stored.handoffs[0]!.status).toBe('claimed');
    expect(stored.handoffs[1]).toEqual(untitled);
  });

  it('approvals: a request without an action is set aside; the queue lists and takes new requests', async () => {
    const store = createMemoryStore();
    const bad = { id: 'apr-bad', requested_by: 'a', payload: {}, status: 'pending', created_at: T };
    await store.write('approvals', { requests: [bad] }, '""');
    const d = deps(store);
    expect(await approvalListing(d, 'all')).toMatchObject({
      requests: [],
      set_aside: [{ record: 'requests[0]', field: 'requests[0].action', id: 'apr-bad' }],
    });
    await requestApproval(d, { action: 'deploy' });
    const stored = (await store.read<{ requests: Array<{ id: string }> }>('approvals')).value!;
    expect(stored.requests[0]).toEqual(bad);
    expect(stored.requests).toHaveLength(2);
  });

  it('coord.events: an event without a timestamp is set aside; the feed keeps every other, numbered as stored', async () => {
    const store = createMemoryStore();
    const ev = (id: string) => ({ id, timestamp: T, source: 's', kind: 'K', data: {} });
    const { timestamp: _t, ...untimed } = ev('e2');
    await store.write('coord.events', { events: [ev('e1'), untimed, ev('e3')] }, '""');
    const feed = await eventsFeed(store);
    expect(feed.events.map((e) => [e.id, e.seq])).toEqual([
      ['e1', 1],
      ['e3', 3],
    ]);
    expect(feed.set_aside?.[0]).toMatchObject({ document: 'coord.events', field: 'events[1].timestamp' });
    await recordEvent(store, { source: 's', kind: 'next' }, () => new Date(T));
    const after = await eventsFeed(store, { after_seq: 3 });
    expect(after.events.map((e) => [e.kind, e.seq])).toEqual([['next', 4]]);
    // Kept in the log, with the sequence its position gave it (the migration stores the older events' sequences).
    expect((await store.events!.read()).events[1]).toEqual({
      ...untimed,
      seq: 2,
    });
  });

  it('a document whose shape is wrong beyond its records is refused (409) naming the field, not an internal error', async () => {
    const store = createMemoryStore();
    await store.write('objectives', { objectives: 'not a list' }, '""');
    const err = await failure(listObjectives(deps(store)));
    expect(err).toBeInstanceOf(RefusedError);
    expect(err.details).toMatchObject({ document: 'objectives', field: 'objectives' });
    expect(err.message).toContain("state document 'objectives' is malformed at objectives");
  });

  it('a single record (an object field) is set aside as absent, kept when a write leaves it be, never replaced', () => {
    const Doc = z.looseObject({
      agent: z.looseObject({ id: z.string(), seen: z.string() }).optional(),
      n: z.number(),
    });
    const raw = { agent: { id: 7 }, n: 1 };
    const { doc, setAside, restore } = parseWithSetAside('agents/x', Doc, raw);
    expect(doc).toEqual({ n: 1 });
    expect(setAside).toEqual([
      expect.objectContaining({ record: 'agent', field: 'agent.id', rule: 'invalid_type' }),
    ]);
    expect(restore({ ...doc, n: 2 })).toEqual({ agent: { id: 7 }, n: 2 });
    expect(() => restore({ ...doc, agent: { id: 'a', seen: T } })).toThrow(RefusedError);
  });
});
