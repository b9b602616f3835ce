// The events feed by sequence under concurrency: 8 writers record events while a poller follows the feed with
// after_seq; the poller must see every event exactly once, in sequence order, with no gaps. On the local backend
// (8 store handles on one .hub directory, serialized by the inter-process lock) and on the http backend (8
// clients of a real hub server, polled over real HTTP), plus the SSE stream resuming from a sequence Last-Event-ID.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CoordDeps,
  type CoordEvent,
  claimHandoff,
  createHandoff,
  eventsFeed,
  recordEvent,
  upsertObjective,
} from '../src/coord/index.js';
import { createHttpStore, createLocalStore, type DocumentStore } from '../src/state/index.js';
import { buildWorkspace, createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { openSse } from './sse-client.js';

const WRITERS = 8;
const PER_WRITER = 15;
const TOTAL = WRITERS * PER_WRITER;

/** Writer w's PER_WRITER events: recorded directly. */
async function ticks(store: DocumentStore, w: number): Promise<void> {
  for (let i = 0; i < PER_WRITER; i++)
    await recordEvent(store, { source: 'test', kind: 'Tick', subject: `w${w}`, data: { w, i } });
}

/**
 * Writer w's PER_WRITER events made by coordination changes, three at a time: a note on its objective (created,
 * then updated), a handoff created and claimed. Every writer writes the same two documents.
 */
async function changes(store: DocumentStore, w: number): Promise<void> {
  const deps: CoordDeps = { store, retries: 200, now: () => new Date() };
  for (let i = 0; i < PER_WRITER / 3; i++) {
    await upsertObjective(
      deps,
      { id: `obj-${w}`, title: `Objective ${w}`, notes: { next: `step ${i}` } },
      { root: '/' },
    );
    await createHandoff(deps, { id: `h-${w}-${i}`, title: `hand ${w} ${i}` });
    await claimHandoff(deps, { id: `h-${w}-${i}`, by: `agent-${w}` });
  }
}

/** Runs the writers and a poller at once; returns the events in the order the poller saw them. */
async function race(
  writer: (w: number) => DocumentStore,
  poll: (afterSeq: number) => Promise<{ events: CoordEvent[]; next_seq: number | null }>,
  write: (store: DocumentStore, w: number) => Promise<void> = ticks,
): Promise<CoordEvent[]> {
  const seen: CoordEvent[] = [];
  let done = false;
  const writers = Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      const store = writer(w);
      await write(store, w);
      await store.close?.();
    }),
  ).finally(() => {
    done = true;
  });
  // Awaited below; marked handled so a failing poll does not also report the writers as unhandled.
  writers.catch(() => undefined);
  let after = 0;
  // Polls while the writers write, then once more after the last one finished.
  for (let last = false; !last; ) {
    last = done;
    const feed = await poll(after);
    seen.push(...feed.events);
    after = feed.next_seq ?? after;
    if (!last) await new Promise((r) => setTimeout(r, 5));
  }
  await writers;
  return seen;
}

function expectExactlyOnceInOrder(seen: CoordEvent[]): void {
  expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
  expect(new Set(seen.map((e) => e.id)).size).toBe(TOTAL);
  // Each writer's events in the order it wrote them.
  for (let w = 0; w < WRITERS; w++)
    expect(seen.filter((e) => e.subject === `w${w}`).map((e) => e.data.i)).toEqual(
      Array.from({ length: PER_WRITER }, (_, i) => i),
    );
}

/** Each writer's objective and handoff changes, once each, in the order it made them. */
function expectChangesOnceInOrder(seen: CoordEvent[]): void {
  expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
  expect(new Set(seen.map((e) => e.id)).size).toBe(TOTAL);
  for (let w = 0; w < WRITERS; w++) {
    const mine = seen.filter((e) => e.subject === `obj-${w}` || e.subject?.startsWith(`h-${w}-`));
    const expected = Array.from({ length: PER_WRITER / 3 }, (_, i) => [
      `${i === 0 ? 'ObjectiveCreated' : 'ObjectiveUpdated'} obj-${w}`,
      `HandoffCreated h-${w}-${i}`,
      `HandoffClaimed h-${w}-${i}`,
    ]).flat();
    expect(mine.map((e) => `${e.kind} ${e.subject}`)).toEqual(expected);
  }
}

describe('events feed by sequence, 8 concurrent writers and a poller', () => {
  let dir: string;
  beforeAll(() => {
    dir = createTempDir('hub-events-seq-');
  });
  afterAll(() => removeTempDir(dir));

  it('local backend: every event exactly once, in sequence order, no gaps', async () => {
    const hub = join(dir, 'local', '.hub');
    mkdirSync(hub, { recursive: true });
    const poller = createLocalStore({ dir: hub });
    const seen = await race(
      () => createLocalStore({ dir: hub, lockTimeoutMs: 60_000 }),
      (after) => eventsFeed(poller, { after_seq: after }),
    );
    expectExactlyOnceInOrder(seen);
  });

  it('local backend: objective and handoff changes too, each once, and no derived copy in the whole feed', async () => {
    const hub = join(dir, 'local-changes', '.hub');
    mkdirSync(hub, { recursive: true });
    const poller = createLocalStore({ dir: hub });
    const seen = await race(
      () => createLocalStore({ dir: hub, lockTimeoutMs: 60_000 }),
      (after) => eventsFeed(poller, { after_seq: after }),
      changes,
    );
    expectChangesOnceInOrder(seen);
    // The whole feed (which adds what it derives from the documents) holds the same events, no more.
    const whole = await eventsFeed(poller);
    expect(whole.events.map((e) => e.id)).toEqual(seen.map((e) => e.id));
  });

  describe('http backend (a real server)', () => {
    let srv: RunningServer;
    let root: string;
    beforeAll(async () => {
      ({ root } = buildWorkspace({
        projects: [{ name: 'p', repos: [{ name: 'r', files: { 'a.txt': 'a\n' } }] }],
      }));
      srv = await startTestServer({ root });
    });
    afterAll(async () => {
      await srv?.close();
      removeTempDir(root);
    });

    it('every event exactly once, in sequence order, no gaps', async () => {
      const seen = await race(
        () => createHttpStore({ url: srv.base, timeoutMs: 30_000 }),
        async (after) => {
          const r = await call(srv.base, 'GET', `/v3/ops/events?after_seq=${after}`);
          expect(r.status, JSON.stringify(r.json)).toBe(200);
          return r.json;
        },
      );
      expectExactlyOnceInOrder(seen);
    });

    it('objective and handoff changes of 8 clients: each once, in order', async () => {
      const before = (await call(srv.base, 'GET', '/v3/ops/events')).json.next_seq as number;
      const seen = await race(
        () => createHttpStore({ url: srv.base, timeoutMs: 30_000 }),
        async (after) => {
          const r = await call(srv.base, 'GET', `/v3/ops/events?after_seq=${Math.max(after, before)}`);
          expect(r.status, JSON.stringify(r.json)).toBe(200);
          return r.json;
        },
        changes,
      );
      expectChangesOnceInOrder(seen.map((e) => ({ ...e, seq: e.seq! - before })));
    });

    it('pages the feed with ?limit=, and refuses a limit out of range naming the field and the rule', async () => {
      const store = createHttpStore({ url: srv.base, timeoutMs: 10_000 });
      const before = (await call(srv.base, 'GET', '/v3/ops/events')).json.next_seq ?? 0;
      for (const kind of ['P1', 'P2', 'P3', 'P4']) await recordEvent(store, { source: 's', kind });
      const page = await call(srv.base, 'GET', `/v3/ops/events?after_seq=${before}&limit=3`);
      expect(page.status).toBe(200);
      expect(page.json.events.map((e: CoordEvent) => e.kind)).toEqual(['P1', 'P2', 'P3']);
      expect(page.json).toMatchObject({ truncated: true, next_seq: before + 3 });
      const rest = await call(srv.base, 'GET', `/v3/ops/events?after_seq=${before + 3}&limit=3`);
      expect(rest.json).toMatchObject({ truncated: false, events: [{ kind: 'P4' }] });
      for (const [bad, rule] of [
        ['0', 'too_small'],
        ['5001', 'too_big'],
        ['x', 'invalid_type'],
      ]) {
        const r = await call(srv.base, 'GET', `/v3/ops/events?limit=${bad}`);
        expect(r.status, bad).toBe(400);
        expect(r.json.error.message).toMatch(/^limit: must be/);
        expect(r.json.error.details.issues[0]).toMatchObject({ field: 'limit', rule });
      }
    });

    it('an item appended through the generic route gets the next sequence; a seq the client sent is replaced', async () => {
      const before = (await call(srv.base, 'GET', '/v3/ops/events')).json.next_seq as number;
      const r = await call(srv.base, 'POST', '/v3/ops/state/coord.events/events', {
        body: {
          id: 'ev-forged',
          timestamp: new Date().toISOString(),
          source: 's',
          kind: 'K',
          data: {},
          seq: 1,
        },
      });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      const feed = (await call(srv.base, 'GET', `/v3/ops/events?after_seq=${before}`)).json;
      expect(feed.events.map((e: CoordEvent) => [e.id, e.seq])).toEqual([['ev-forged', before + 1]]);
    });

    it('the SSE stream sends each recorded event with its sequence as id and resumes from Last-Event-ID', async () => {
      const stream = '/v3/ops/events/stream?poll_ms=100';
      const s = await openSse(`${srv.base}${stream}`);
      const ids: string[] = [];
      try {
        for (;;) {
          const m = await s.next(1000).catch(() => undefined);
          if (!m) break;
          ids.push(m.id!);
          expect(m.id).toBe(String(JSON.parse(m.data).seq));
        }
      } finally {
        s.close();
      }
      const last = Number(ids.at(-1));
      expect(ids.map(Number)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
      const store = createHttpStore({ url: srv.base, timeoutMs: 10_000 });
      // Two events in the same millisecond: resuming by sequence gets both.
      const now = () => new Date('2030-01-01T00:00:00.000Z');
      await recordEvent(store, { source: 's', kind: 'Same1' }, now);
      await recordEvent(store, { source: 's', kind: 'Same2' }, now);
      const resumed = await openSse(`${srv.base}${stream}`, { 'last-event-id': String(last) });
      try {
        const a = await resumed.next();
        const b = await resumed.next();
        expect([a.id, b.id]).toEqual([String(last + 1), String(last + 2)]);
        expect([JSON.parse(a.data).kind, JSON.parse(b.data).kind]).toEqual(['Same1', 'Same2']);
      } finally {
        resumed.close();
      }
      // The older cursor form is still accepted.
      const old = await openSse(`${srv.base}${stream}`, { 'last-event-id': '2029-12-31T23:59:59.000Z|x' });
      try {
        expect(old.status).toBe(200);
        expect(JSON.parse((await old.next()).data).kind).toBe('Same1');
      } finally {
        old.close();
      }
    });
  });
});
