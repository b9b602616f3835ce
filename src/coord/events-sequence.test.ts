import { describe, expect, it } from 'vitest';
import { RefusedError } from '../infra/index.js';
import { createMemoryStore } from '../state/index.js';
import { recordEvent } from './change-events.js';
import { eventsFeed } from './events.js';
import { followEvents } from './events-follow.js';
import { appendSequenced, sequenced } from './events-sequence.js';

const at = (iso: string) => () => new Date(iso);
const T = '2026-03-01T10:00:00.123Z';

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
    const doc = (
      await store.read<{ events: Array<{ id: string; seq: number }>; last_seq: number }>('coord.events')
    ).value!;
    expect(doc.events.map((e) => [e.id, e.seq])).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    expect(doc.last_seq).toBe(3);
  });

  it('never reuses a sequence after old events are removed', () => {
    const { value, seq } = appendSequenced({ events: [], last_seq: 41 }, { id: 'x' });
    expect(seq).toBe(42);
    expect(value.last_seq).toBe(42);
    expect(sequenced([{ seq: 7 }, {}]).events.map((e) => e.seq)).toEqual([7, 8]);
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
