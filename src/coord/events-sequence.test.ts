import { describe, expect, it } from 'vitest';
import { type HubError, RefusedError, ValidationError } from '../infra/index.js';
import { createMemoryStore } from '../state/index.js';
import { recordEvent } from './change-events.js';
import { eventsFeed } from './events.js';
import { followEvents } from './events-follow.js';
import {
  appendSequenced,
  MAX_EVENT_BYTES,
  MAX_RECORDED_EVENTS,
  recordSequenced,
  sequenced,
} from './events-sequence.js';

const at = (iso: string) => () => new Date(iso);
const T = '2026-03-01T10:00:00.123Z';
const event = (id: string) => ({ id, timestamp: T, source: 's', kind: 'K', data: {} });

describe('event sequences', () => {
  it('returns an event recorded later in the same millisecond as the cursor, by sequence', async () => {
    const store = createMemoryStore();
    await recordEvent(store, { source: 'acl', kind: 'A' }, at(T));
    const first = await eventsFeed(store);
    expect(first.events.map((e) => [e.kind, e.seq])).toEqual([['A', 1]]);
    expect(first.next_seq).toBe(1);
    await recordEvent(store, { source: 'acl', kind: 'B' }, at(T));
    // By timestamp the second event is lost (it shares the cursor's millisecond): the limitation sequences fix.
    expect((await eventsFeed(store, { since: first.next_cursor! })).events).toEqual([]);
    const next = await eventsFeed(store, { after_seq: first.next_seq! });
    expect(next.events.map((e) => [e.kind, e.seq])).toEqual([['B', 2]]);
    expect(next.next_seq).toBe(2);
    expect((await eventsFeed(store, { after_seq: 2 })).next_seq).toBe(2);
  });

  it('orders recorded events by sequence even when a later one carries an older timestamp (clock skew)', async () => {
    const store = createMemoryStore();
    await recordEvent(store, { source: 's', kind: 'first' }, at('2026-03-01T10:00:05Z'));
    await recordEvent(store, { source: 's', kind: 'second' }, at('2026-03-01T10:00:01Z'));
    const feed = await eventsFeed(store);
    expect(feed.events.map((e) => e.kind)).toEqual(['first', 'second']);
    expect(feed.next_cursor).toBe('2026-03-01T10:00:05.000Z');
  });

  it('numbers events recorded before sequences by position, and continues from there when recording', async () => {
    const store = createMemoryStore();
    const legacy = (id: string) => ({ id, timestamp: T, source: 's', kind: 'K', data: {} });
    await store.write('coord.events', { events: [legacy('a'), legacy('b')] }, '""');
    expect((await eventsFeed(store)).events.map((e) => [e.id, e.seq])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    await recordEvent(store, { id: 'c', source: 's', kind: 'K' }, at(T));
    // The first record migrated the document into the log, which numbers on from it.
    const log = await store.events!.read();
    expect(log.events.map((e) => [e.id, e.seq])).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    expect(log.last_seq).toBe(3);
    // The document stays as it was, for older builds.
    expect((await store.read<{ events: unknown[] }>('coord.events')).value!.events).toHaveLength(2);
  });

  it('never reuses a sequence after old events are removed', () => {
    const { value, seq } = appendSequenced({ events: [], last_seq: 41 }, { id: 'x' });
    expect(seq).toBe(42);
    expect(value.last_seq).toBe(42);
    expect(sequenced([{ seq: 7 }, {}]).events.map((e) => e.seq)).toEqual([7, 8]);
  });

  it('keeps the newest events when the document reaches its bound; the feed names the oldest it holds', async () => {
    let doc: unknown = { events: [] };
    for (const id of ['a', 'b', 'c', 'd', 'e'])
      doc = appendSequenced(
        doc,
        { id, timestamp: T, source: 's', kind: 'K', data: {} },
        { count: 3, bytes: 10_000, event: 10_000 },
      ).value;
    const kept = doc as { events: Array<{ id: string; seq: number }>; last_seq: number };
    expect(kept.events.map((e) => [e.id, e.seq])).toEqual([
      ['c', 3],
      ['d', 4],
      ['e', 5],
    ]);
    expect(kept.last_seq).toBe(5);
    const store = createMemoryStore();
    await store.write('coord.events', doc, '""');
    // A poller that saw up to 1 learns from first_seq that 2 was dropped before it read again.
    const feed = await eventsFeed(store, { after_seq: 1 });
    expect(feed).toMatchObject({ first_seq: 3, next_seq: 5 });
    expect(feed.events.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect((await eventsFeed(createMemoryStore())).first_seq).toBeNull();
    expect(MAX_RECORDED_EVENTS).toBe(5000);
  });

  it('keeps as many of the newest events as fit the byte bound', () => {
    const ev = (id: string, note: string) => ({ id, timestamp: T, source: 's', kind: 'K', data: { note } });
    const size = JSON.stringify({ ...ev('a', 'x'.repeat(100)), seq: 1 }).length + 1;
    let doc: unknown = { events: [] };
    for (const id of ['a', 'b', 'c', 'd'])
      doc = appendSequenced(doc, ev(id, 'x'.repeat(100)), { count: 100, bytes: 2 * size, event: size }).value;
    expect((doc as { events: Array<{ id: string }> }).events.map((e) => e.id)).toEqual(['c', 'd']);
  });

  it('refuses an event over its own bound, naming the bound, and never lets it evict the feed', async () => {
    const store = createMemoryStore();
    for (let i = 0; i < 50; i++) await recordSequenced(store, { ...event(`e${i}`), data: { i } });
    const before = await store.read('coord.events');
    const big = { ...event('big'), data: { note: 'x'.repeat(2 * 1024 * 1024) } };
    const err = await recordSequenced(store, big).then(
      () => undefined,
      (e: unknown) => e as HubError,
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect(err!.details).toMatchObject({ rule: 'max_event_bytes', limit: MAX_EVENT_BYTES });
    expect(err!.message).toContain(String(MAX_EVENT_BYTES));
    expect(await store.read('coord.events')).toEqual(before);
    expect((await eventsFeed(store)).events).toHaveLength(50);
    expect(() => appendSequenced({ events: [] }, big)).toThrow(ValidationError);
  });

  it("records hub's own event with an over-long text clipped, so an operation never fails or evicts the feed for it", async () => {
    const store = createMemoryStore();
    for (let i = 0; i < 50; i++) await recordEvent(store, { source: 's', kind: 'K', data: { i } }, at(T));
    const note = 'n'.repeat(2 * 1024 * 1024);
    const recorded = await recordEvent(
      store,
      { source: 'handoff', kind: 'HandoffCompleted', subject: 'ho-1', data: { note, by: 'a' } },
      at(T),
    );
    expect(JSON.stringify(recorded).length).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    const feed = await eventsFeed(store);
    expect(feed.events).toHaveLength(51);
    const last = feed.events[50]!;
    expect(last.data).toMatchObject({ by: 'a', clipped: true });
    expect(String(last.data.note).startsWith('nnnn')).toBe(true);
    expect(String(last.data.note).length).toBeLessThan(note.length);
  });

  it('pages with limit, oldest first: truncated says more follow, next_seq is where the next page starts', async () => {
    const store = createMemoryStore();
    for (const kind of ['A', 'B', 'C', 'D', 'E']) await recordEvent(store, { source: 's', kind }, at(T));
    const seen: string[] = [];
    let after: number | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await eventsFeed(store, { after_seq: after, limit: 2 });
      seen.push(...page.events.map((e) => e.kind));
      after = page.next_seq ?? after;
      if (!page.truncated) break;
      expect(page.events).toHaveLength(2);
    }
    expect(seen).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(await eventsFeed(store, { limit: 5 })).toMatchObject({ truncated: false, next_seq: 5 });
  });

  it('refuses to record into a document that is not an events list, as a plain append does', () => {
    expect(() => appendSequenced({ events: 'no' }, { id: 'x' })).toThrow(RefusedError);
  });

  it('a followed feed resumes after a sequence cursor, and still after the older <timestamp>|<id> form', async () => {
    const store = createMemoryStore();
    for (const kind of ['A', 'B', 'C']) await recordEvent(store, { source: 's', kind }, at(T));
    const take = async (after: string) => {
      const stop = new AbortController();
      const out: string[] = [];
      for await (const f of followEvents(store, { after }, { pollMs: 100, signal: stop.signal })) {
        out.push(`${f.cursor}:${f.event.kind}`);
        if (out.length === 1) stop.abort();
      }
      return out;
    };
    expect(await take('1')).toEqual(['2:B']);
    const feed = await eventsFeed(store);
    // The old form compares timestamps and ids: events of the same millisecond with a greater id follow it. Ids are
    // random, so the cursor names the smallest (the first in the feed may hold the greatest: nothing would follow).
    const smallest = feed.events.map((e) => e.id).sort()[0]!;
    const firstId = encodeURIComponent(smallest);
    const old = await take(`${T}|${firstId}`);
    expect(old[0]).toMatch(/^\d:[ABC]$/);
  });
});
