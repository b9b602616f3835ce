// The one conformance suite every state backend runs (memory, local, and later http, dynamodb, mongodb).
// Documents are named generically (notes, tasks): a hub server checks objectives, handoffs and approvals against
// their schemas, and this suite is about the store contract, not those shapes.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HubError, StateConflictError, ValidationError } from '../src/infra/index.js';
import { canonicalJson, type DocumentStore, type EventLog, updateDocument } from '../src/state/index.js';

export interface StoreUnderTest {
  store: DocumentStore;
  /** Another handle on the same documents (another process would open this), where the backend has one. */
  reopen?(): DocumentStore;
  /**
   * A handle on the same documents whose events log keeps only the newest 20 events (days: 0) and compacts
   * without delay (local: segments of 10 events); http: a client of a server whose store is such a handle (the
   * server compacts its log as it appends; the client's compact does nothing).
   */
  compacting?(): DocumentStore | Promise<DocumentStore>;
  cleanup(): Promise<void>;
}

/** The store without its atomic `update`: what updateDocument's compare-and-swap path runs against. */
const casOnly = (store: DocumentStore): DocumentStore => ({ ...store, update: undefined });

const ETAG_RE = /^"[0-9a-f]{64}"$/;

/** Computed here, not by the code under test: `"` + sha256 hex of the given canonical text + `"`. */
const etagOfCanonical = (canonical: string) =>
  `"${createHash('sha256').update(canonical, 'utf8').digest('hex')}"`;

interface Counter {
  n: number;
}

/** Registers the conformance cases for one backend; `make` gives a fresh, empty store per case. */
export function runStoreConformance(name: string, make: () => Promise<StoreUnderTest>): void {
  describe(`state conformance: ${name}`, () => {
    let handle: StoreUnderTest | undefined;
    let store: DocumentStore;

    beforeEach(async () => {
      handle = await make();
      store = handle.store;
    });
    afterEach(async () => {
      await handle?.store.close?.();
      await handle?.cleanup();
      handle = undefined;
    });

    it('reports an empty document with no ETag and no value', async () => {
      expect(await store.read('notes')).toEqual({ value: undefined, etag: undefined });
    });

    it('accepts a first write with If-Match ""', async () => {
      const etag = await store.write('notes', { objectives: [] }, '""');
      expect(etag).toMatch(ETAG_RE);
      expect((await store.read('notes')).value).toEqual({ objectives: [] });
    });

    it('rejects a first write with any other If-Match as a conflict and keeps the document empty', async () => {
      const value = { objectives: [{ id: 'a' }] };
      const selfEtag = etagOfCanonical(canonicalJson(value));
      for (const ifMatch of [selfEtag, `"${'0'.repeat(64)}"`, '"x"', '*']) {
        await expect(store.write('notes', value, ifMatch), ifMatch).rejects.toBeInstanceOf(
          StateConflictError,
        );
      }
      expect(await store.read('notes')).toEqual({ value: undefined, etag: undefined });
    });

    it('rejects a stale If-Match and leaves the document as the winner wrote it', async () => {
      const e1 = await store.write('notes', { objectives: [{ id: 'v1' }] }, '""');
      const e2 = await store.write('notes', { objectives: [{ id: 'v2' }] }, e1);
      expect(e2).not.toBe(e1);
      await expect(store.write('notes', { objectives: [{ id: 'v3' }] }, e1)).rejects.toBeInstanceOf(
        StateConflictError,
      );
      // A document that exists is never "empty" again.
      await expect(store.write('notes', { objectives: [{ id: 'v4' }] }, '""')).rejects.toBeInstanceOf(
        StateConflictError,
      );
      expect(await store.read('notes')).toEqual({ value: { objectives: [{ id: 'v2' }] }, etag: e2 });
    });

    it('returns from a write the ETag the next read reports', async () => {
      let etag = '""';
      for (let i = 0; i < 3; i++) {
        const value = { objectives: Array.from({ length: i }, (_, j) => ({ id: `o${j}` })) };
        etag = await store.write('notes', value, etag);
        const read = await store.read('notes');
        expect(read.etag).toBe(etag);
        expect(read.value).toEqual(value);
      }
    });

    it('derives the ETag from the SHA-256 of the canonical JSON, whatever the key order', async () => {
      const value = { b: 1, a: [true, null, 'x', { d: 2, c: 'é' }], c: { z: 'é', y: 1.5, x: [] } };
      const canonical = '{"a":[true,null,"x",{"c":"é","d":2}],"b":1,"c":{"x":[],"y":1.5,"z":"é"}}';
      const etag = await store.write('notes', value, '""');
      expect(etag).toBe(etagOfCanonical(canonical));
      expect((await store.read('notes')).etag).toBe(etag);

      const reordered = { c: { x: [], y: 1.5, z: 'é' }, a: [true, null, 'x', { c: 'é', d: 2 }], b: 1 };
      expect(await store.write('tasks', reordered, '""')).toBe(etag);
      // An If-Match computed from the same document in another key order is current.
      const next = await store.write('notes', { a: 1 }, etagOfCanonical(canonicalJson(reordered)));
      expect(next).toBe(etagOfCanonical('{"a":1}'));
    });

    it('round-trips documents exactly', async () => {
      const value = {
        unicode: ['héllo', '日本語', 'emoji 🧪🚀', 'combining é', 'rtl שלום', 'quote " backslash \\ slash /'],
        controls: 'tab\tnewline\nreturn\r\u0001',
        'key with spaces': 'ok',
        ключ: 'значение',
        nested: [[1, [2, [3, []]]], [{ a: [{}] }], []],
        numbers: [0, 1, -1, 1.5, -0.000001, 1e21, 123456789.125, Number.MAX_SAFE_INTEGER, -2147483648],
        booleans: [true, false],
        nothing: null,
        emptyArray: [],
        emptyObject: {},
        emptyString: '',
        deep: { a: { b: { c: { d: { e: ['f'] } } } } },
      };
      const etag = await store.write('notes', value, '""');
      const read = await store.read('notes');
      expect(read.value).toStrictEqual(value);
      expect(read.etag).toBe(etag);
      expect(canonicalJson(read.value)).toBe(canonicalJson(value));
    });

    it('refuses to write no document', async () => {
      await expect(store.write('notes', undefined, '""')).rejects.toBeInstanceOf(HubError);
      expect(await store.read('notes')).toEqual({ value: undefined, etag: undefined });
    });

    it('refuses a document that names the outbox key (the local backend keeps events under it), on any write', async () => {
      const refused = { code: 'validation', details: { field: 'hub:outbox', rule: 'reserved_key' } };
      await expect(store.write('notes', { 'hub:outbox': [] }, '""')).rejects.toMatchObject(refused);
      if (store.update)
        await expect(
          store.update('notes', () => ({ value: { a: 1, 'hub:outbox': 'x' }, result: undefined })),
        ).rejects.toMatchObject(refused);
      expect(await store.read('notes')).toEqual({ value: undefined, etag: undefined });
    });

    it('updateDocument creates an absent document from undefined', async () => {
      const { etag, value, result } = await updateDocument<Counter, string>(
        store,
        'notes',
        (cur) => ({ value: { n: (cur?.n ?? 0) + 1 }, result: cur === undefined ? 'created' : 'updated' }),
        { retries: 1 },
      );
      expect(result).toBe('created');
      expect(value).toEqual({ n: 1 });
      expect(await store.read('notes')).toEqual({ value: { n: 1 }, etag });
    });

    it('updateDocument hands fn a copy: a failing fn changes nothing', async () => {
      const etag = await store.write('notes', { objectives: ['a'] }, '""');
      await expect(
        updateDocument<{ objectives: string[] }>(
          store,
          'notes',
          (cur) => {
            cur?.objectives.push('mutated');
            throw new Error('boom');
          },
          { retries: 1 },
        ),
      ).rejects.toThrow('boom');
      expect(await store.read('notes')).toEqual({ value: { objectives: ['a'] }, etag });
    });

    it('updateDocument reloads and reapplies fn on the fresh document after a conflict', async () => {
      await store.write('notes', { objectives: ['a'] }, '""');
      const seen: string[][] = [];
      const { value, result } = await updateDocument<{ objectives: string[] }, number>(
        casOnly(store),
        'notes',
        async (cur) => {
          const list = cur?.objectives ?? [];
          seen.push([...list]);
          if (seen.length === 1) {
            // Another writer lands between this attempt's read and its write.
            const now = await store.read<{ objectives: string[] }>('notes');
            await store.write('notes', { objectives: [...list, 'b'] }, now.etag!);
          }
          return { value: { objectives: [...list, 'c'] }, result: seen.length };
        },
        { retries: 1 },
      );
      expect(seen).toEqual([['a'], ['a', 'b']]);
      expect(result).toBe(2);
      expect(value).toEqual({ objectives: ['a', 'b', 'c'] });
      expect((await store.read('notes')).value).toEqual({ objectives: ['a', 'b', 'c'] });
    });

    it.each([0, 1, 3])(
      'updateDocument gives up with a conflict after retries+1 attempts (retries=%i)',
      async (retries) => {
        await store.write('notes', { n: 0 }, '""');
        let calls = 0;
        const waits: number[] = [];
        const run = updateDocument<Counter>(
          casOnly(store),
          'notes',
          async (cur) => {
            calls++;
            // Someone else always wins the race.
            const now = await store.read<Counter>('notes');
            await store.write('notes', { n: (now.value?.n ?? 0) + 100 }, now.etag!);
            return { value: { n: (cur?.n ?? 0) + 1 }, result: undefined };
          },
          { retries, sleep: async (ms) => void waits.push(ms) },
        );
        await expect(run).rejects.toBeInstanceOf(StateConflictError);
        expect(calls).toBe(retries + 1);
        // One wait before each retry, growing exponentially with full jitter (10 ms ceiling, doubling).
        expect(waits).toHaveLength(retries);
        waits.forEach((ms, i) => {
          expect(ms).toBeGreaterThanOrEqual(0);
          expect(ms).toBeLessThan(10 * 2 ** i);
        });
        expect((await store.read('notes')).value).toEqual({ n: 100 * (retries + 1) });
      },
    );

    describe('collections', () => {
      it('keeps documents of a collection apart, with keys in upper case and ~', async () => {
        const e1 = await store.write('claims/Platform~identity', { claims: ['a'] }, '""');
        await store.write('claims/self', { claims: ['b'] }, '""');
        await store.write('leases/Platform~identity', { leases: [] }, '""');
        expect(await store.read('claims/Platform~identity')).toEqual({ value: { claims: ['a'] }, etag: e1 });
        expect((await store.read('claims/self')).value).toEqual({ claims: ['b'] });
      });

      it('lists the documents of one collection, sorted, and none of another', async () => {
        if (!store.list) throw new Error(`${store.backend} has no list`);
        expect(await store.list('claims')).toEqual([]);
        await store.write('claims/z~b', { claims: [] }, '""');
        await store.write('claims/a~b', { claims: [] }, '""');
        await store.write('leases/a~b', { leases: [] }, '""');
        await store.write('notes', { n: 1 }, '""');
        expect(await store.list('claims')).toEqual(['claims/a~b', 'claims/z~b']);
        expect(await store.list('leases')).toEqual(['leases/a~b']);
      });

      it('refuses names outside the rule: a second slash, a dot-dot key, an upper-case collection', async () => {
        for (const bad of ['claims/a/b', 'claims/../x', 'Claims/a', 'claims/', '/a']) {
          await expect(store.write(bad, { x: 1 }, '""'), bad).rejects.toBeInstanceOf(HubError);
        }
        await expect(store.list!('Bad/x')).rejects.toBeInstanceOf(HubError);
      });

      it('updates a collection document atomically like any other', async () => {
        await Promise.all(
          Array.from({ length: 10 }, () =>
            updateDocument<Counter, void>(
              store,
              'claims/a~b',
              (cur) => ({ value: { n: (cur?.n ?? 0) + 1 }, result: undefined }),
              { retries: 50 },
            ),
          ),
        );
        expect((await store.read('claims/a~b')).value).toEqual({ n: 10 });
      });
    });

    it('append creates the document when it is absent', async () => {
      const etag = await store.append('tasks', 'handoffs', { id: 'h1', note: 'first' });
      expect(etag).toMatch(ETAG_RE);
      expect(await store.read('tasks')).toEqual({
        value: { handoffs: [{ id: 'h1', note: 'first' }] },
        etag,
      });
    });

    it('append adds to the list without compare-and-swap, keeping the other keys', async () => {
      const e1 = await store.write('tasks', { handoffs: [{ id: 'h1' }], meta: { v: 1 } }, '""');
      const e2 = await store.append('tasks', 'handoffs', { id: 'h2' });
      const e3 = await store.append('tasks', 'handoffs', { id: 'h3' });
      expect(new Set([e1, e2, e3]).size).toBe(3);
      expect(await store.read('tasks')).toEqual({
        value: { handoffs: [{ id: 'h1' }, { id: 'h2' }, { id: 'h3' }], meta: { v: 1 } },
        etag: e3,
      });
      // The append moved the ETag on: a writer holding the old one is stale.
      await expect(store.write('tasks', { handoffs: [] }, e1)).rejects.toBeInstanceOf(StateConflictError);
      // A key not there yet starts a list.
      await store.append('tasks', 'archived', { id: 'h0' });
      expect((await store.read<Record<string, unknown>>('tasks')).value?.archived).toEqual([{ id: 'h0' }]);
    });

    it('refuses to append onto a key that is not a list instead of overwriting it', async () => {
      for (const notAList of [{ id: 'x' }, 'text', 3, null]) {
        const doc = `tasks`;
        const before = await store.read(doc);
        const etag = await store.write(doc, { handoffs: notAList, keep: true }, before.etag ?? '""');
        const err = await store.append(doc, 'handoffs', { id: 'h1' }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, JSON.stringify(notAList)).toBeInstanceOf(HubError);
        expect((err as HubError).code).toBe('refused');
        expect((err as HubError).message).toContain('handoffs');
        expect(await store.read(doc)).toEqual({ value: { handoffs: notAList, keep: true }, etag });
      }
    });

    it('refuses an append, an update or a write that would take the document past 8 MiB, and keeps it', async () => {
      const MiB = 1024 * 1024;
      const etag = await store.write('tasks', { items: ['a'.repeat(7.5 * MiB)] }, '""');
      const before = await store.read('tasks');
      const refusal = async (p: Promise<unknown>, what: string) => {
        const err = await p.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, what).toBeInstanceOf(ValidationError);
        // The bound by name, or (a hub server's body limit, for a write that is larger on its own) by value.
        expect((err as HubError).message, what).toMatch(/8 MiB|8388608/);
        return err as HubError;
      };
      const appended = await refusal(store.append('tasks', 'items', 'b'.repeat(MiB)), 'append');
      expect(appended.details).toMatchObject({ rule: 'max_document_bytes', limit: 8 * MiB });
      await refusal(
        updateDocument<{ items: string[] }>(
          store,
          'tasks',
          (cur) => ({ value: { items: [...cur!.items, 'c'.repeat(MiB)] }, result: undefined }),
          { retries: 0 },
        ),
        'update',
      );
      await refusal(store.write('tasks', { items: ['d'.repeat(9 * MiB)] }, etag), 'write');
      expect(await store.read('tasks')).toEqual(before);
    });

    it('lands every one of 20 concurrent compare-and-swap increments (retries=50)', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          updateDocument<Counter, number>(
            casOnly(store),
            'notes',
            (cur) => {
              const n = (cur?.n ?? 0) + 1;
              return { value: { n }, result: n };
            },
            { retries: 50 },
          ),
        ),
      );
      expect(results.map((r) => r.result).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      const final = await store.read<Counter>('notes');
      expect(final.value).toEqual({ n: 20 });
      expect(final.etag).toBe(results.find((r) => r.result === 20)?.etag);
    });

    describe('atomic update', () => {
      const increment = (s: DocumentStore) =>
        updateDocument<Counter, number>(
          s,
          'notes',
          (cur) => {
            const n = (cur?.n ?? 0) + 1;
            return { value: { n }, result: n };
          },
          // No retries: an atomic update never conflicts, so every one lands the first time.
          { retries: 0 },
        );

      it('is offered by the backends that can serialize writers (local, memory), not by http', () => {
        expect(typeof store.update === 'function').toBe(store.backend !== 'http');
      });

      it('lands every one of 30 concurrent updates without a retry, each seeing the one before', async ({
        skip,
      }) => {
        if (!store.update) skip();
        const results = await Promise.all(Array.from({ length: 30 }, () => increment(store)));
        expect(results.map((r) => r.result).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 30 }, (_, i) => i + 1),
        );
        const final = await store.read<Counter>('notes');
        expect(final.value).toEqual({ n: 30 });
        expect(final.etag).toBe(results.find((r) => r.result === 30)?.etag);
      });

      it('serializes writers of two handles on the same documents', async ({ skip }) => {
        const other = handle?.reopen?.();
        if (!store.update || !other) skip();
        const results = await Promise.all(
          Array.from({ length: 24 }, (_, i) => increment(i % 2 ? other! : store)),
        );
        expect(results.map((r) => r.result).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 24 }, (_, i) => i + 1),
        );
        expect((await other!.read<Counter>('notes')).value).toEqual({ n: 24 });
      });

      it('interleaves with plain writes and appends without losing either', async ({ skip }) => {
        if (!store.update) skip();
        await store.write('handoffs', { handoffs: [] }, '""');
        const work: Promise<unknown>[] = [];
        for (let i = 0; i < 10; i++) {
          work.push(
            updateDocument<{ handoffs: unknown[] }>(
              store,
              'handoffs',
              async (cur) => {
                await new Promise((r) => setTimeout(r, 1));
                return { value: { handoffs: [...(cur?.handoffs ?? []), `u${i}`] }, result: undefined };
              },
              { retries: 0 },
            ),
          );
          work.push(store.append('handoffs', 'handoffs', `a${i}`));
        }
        await Promise.all(work);
        const list = (await store.read<{ handoffs: string[] }>('handoffs')).value!.handoffs;
        expect([...list].sort()).toEqual(
          [
            ...Array.from({ length: 10 }, (_, i) => `u${i}`),
            ...Array.from({ length: 10 }, (_, i) => `a${i}`),
          ].sort(),
        );
      });

      it('returns the stored ETag and value, and changes nothing when fn throws', async ({ skip }) => {
        if (!store.update) skip();
        const first = await store.update!<{ objectives: string[] }, string>('notes', (cur) => ({
          value: { objectives: [...(cur?.objectives ?? []), 'a'] },
          result: 'ok',
        }));
        expect(first.result).toBe('ok');
        expect(await store.read('notes')).toEqual({ value: first.value, etag: first.etag });
        await expect(
          store.update!<{ objectives: string[] }, void>('notes', (cur) => {
            cur?.objectives.push('mutated');
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        // The same value again: same ETag, and the document is as it was.
        const same = await store.update!<{ objectives: string[] }, void>('notes', (cur) => ({
          value: cur!,
          result: undefined,
        }));
        expect(same.etag).toBe(first.etag);
        expect(await store.read('notes')).toEqual({ value: { objectives: ['a'] }, etag: first.etag });
        await expect(
          store.update!('notes', () => ({ value: undefined, result: undefined })),
        ).rejects.toBeInstanceOf(HubError);
      });
    });

    describe('events log', () => {
      const ev = (w: number, i: number) => ({
        id: `ev-${w}-${i}`,
        timestamp: new Date().toISOString(),
        source: 'test',
        kind: 'Tick',
        data: { w, i },
      });
      const logOf = (s: DocumentStore): EventLog => {
        if (!s.events) throw new Error(`${s.backend} has no events log`);
        return s.events;
      };
      /** Every event of the log, read in pages of `page` by sequence (what a poller does). */
      const readAll = async (log: EventLog, page = 50) => {
        const out: Array<Record<string, unknown> & { seq: number }> = [];
        let after = 0;
        for (;;) {
          const got = await log.read({ after, limit: page });
          out.push(...got.events);
          if (got.events.length === 0) return out;
          after = got.events.at(-1)!.seq;
        }
      };

      it('appends with sequences 1, 2, 3 and reads by after_seq only what is new', async () => {
        const log = logOf(store);
        expect(await log.read()).toEqual({ events: [], first_seq: null, last_seq: 0 });
        for (let i = 0; i < 3; i++) expect((await log.append(ev(0, i))).seq).toBe(i + 1);
        const all = await log.read();
        expect(all.events.map((e) => [e.id, e.seq])).toEqual([
          ['ev-0-0', 1],
          ['ev-0-1', 2],
          ['ev-0-2', 3],
        ]);
        expect(all).toMatchObject({ first_seq: 1, last_seq: 3 });
        expect(all.events[0]).toMatchObject({ source: 'test', kind: 'Tick', data: { w: 0, i: 0 } });
        expect((await log.read({ after: 3 })).events).toEqual([]);
        expect((await log.read({ after: 1, limit: 1 })).events.map((e) => e.seq)).toEqual([2]);
        // A sequence the caller sent is replaced by the log's own.
        expect((await log.append({ ...ev(0, 3), seq: 99 })).seq).toBe(4);
        expect((await log.read({ after: 3 })).events.map((e) => e.seq)).toEqual([4]);
      });

      it('gives 8 concurrent writers (two handles where there are two) each a sequence of its own: no gap, no duplicate, none lost', async () => {
        const other = handle?.reopen?.() ?? store;
        const per = 8;
        const acked = await Promise.all(
          Array.from({ length: 8 }, async (_, w) => {
            const s = w % 2 ? other : store;
            const seqs: number[] = [];
            for (let i = 0; i < per; i++) seqs.push((await logOf(s).append(ev(w, i))).seq!);
            return seqs;
          }),
        );
        const events = await readAll(logOf(store), 25);
        expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 8 * per }, (_, i) => i + 1));
        // Every acknowledged sequence holds the event its writer sent, and each writer's events are in its order.
        const bySeq = new Map(events.map((e) => [e.seq, e]));
        acked.forEach((seqs, w) => {
          expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
          seqs.forEach((seq, i) => {
            expect(bySeq.get(seq)?.id).toBe(`ev-${w}-${i}`);
          });
        });
      });

      it('refuses an event over 64 KiB of JSON, and records nothing for it', async () => {
        const log = logOf(store);
        await log.append(ev(0, 0));
        const err = await log.append({ ...ev(0, 1), data: { note: 'x'.repeat(70 * 1024) } }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(ValidationError);
        expect((err as HubError).details).toMatchObject({ rule: 'max_event_bytes' });
        expect((await log.append(ev(0, 2))).seq).toBe(2);
      });

      it('serves the legacy coord.events document until the first append migrates it, and leaves it in place', async () => {
        const legacy = {
          events: [
            { id: 'old-1', timestamp: '2026-01-01T00:00:00.000Z', source: 's', kind: 'K', data: {}, seq: 41 },
            { id: 'old-2', timestamp: '2026-01-01T00:00:01.000Z', source: 's', kind: 'K', data: {} },
          ],
          last_seq: 42,
        };
        const etag = await store.write('coord.events', legacy, '""');
        const log = logOf(store);
        // Before any append: read from the document, sequences as its readers numbered them.
        const before = await log.read();
        expect(before.events.map((e) => [e.id, e.seq])).toEqual([
          ['old-1', 41],
          ['old-2', 42],
        ]);
        expect(before).toMatchObject({ first_seq: 41, last_seq: 42 });
        const other = handle?.reopen?.() ?? store;
        const seqs = await Promise.all([logOf(store).append(ev(0, 0)), logOf(other).append(ev(1, 0))]);
        expect(seqs.map((s) => s.seq).sort()).toEqual([43, 44]);
        const after = await log.read();
        expect(after.events.map((e) => e.seq)).toEqual([41, 42, 43, 44]);
        expect(after.events[1]).toMatchObject({ id: 'old-2', seq: 42 });
        expect((await log.read({ after: 42 })).events.map((e) => e.seq)).toEqual([43, 44]);
        // Left for older builds, unchanged; a store holding both serves the log.
        expect(await store.read('coord.events')).toEqual({ value: legacy, etag });
        expect((await log.append(ev(0, 1))).seq).toBe(45);
      });

      it('numbers on from a legacy document whose events were all removed (last_seq only)', async () => {
        await store.write('coord.events', { events: [], last_seq: 7 }, '""');
        expect((await logOf(store).append(ev(0, 0))).seq).toBe(8);
        expect(await logOf(store).read()).toMatchObject({ first_seq: 8, last_seq: 8 });
      });

      it('records the events a change gives with its write (updateDocument): in the same step where the backend can', async () => {
        const log = logOf(store);
        await log.append(ev(0, 0));
        const out = await updateDocument<Counter, string>(
          store,
          'notes',
          (cur) => ({
            value: { n: (cur?.n ?? 0) + 1 },
            result: 'ok',
            events: [ev(1, 0), ev(1, 1)],
          }),
          { retries: 3 },
        );
        expect(out.result).toBe('ok');
        expect(out.recorded?.map((r) => r.seq)).toEqual([2, 3]);
        expect((await store.read('notes')).value).toEqual({ n: 1 });
        expect((await log.read({ after: 1 })).events.map((e) => e.id)).toEqual(['ev-1-0', 'ev-1-1']);
        // A failing step records nothing.
        await expect(
          updateDocument(
            store,
            'notes',
            () => {
              throw new Error('boom');
            },
            { retries: 0 },
          ),
        ).rejects.toThrow('boom');
        expect((await log.read()).last_seq).toBe(3);
      });

      it('compacts by count while writers append: never the newest, no sequence reused, first_seq says where it starts', async ({
        skip,
      }) => {
        const open = handle?.compacting;
        if (!open) skip();
        const a = await open!();
        const b = await open!();
        const per = 15;
        const writers = Array.from({ length: 4 }, async (_, w) => {
          const seqs: number[] = [];
          for (let i = 0; i < per; i++) seqs.push((await logOf(w % 2 ? b : a).append(ev(w, i))).seq!);
          return seqs;
        });
        let compactions = 0;
        const compactor = (async () => {
          for (let i = 0; i < 10; i++) {
            await logOf(a).compact();
            compactions++;
            await new Promise((r) => setTimeout(r, 1));
          }
        })();
        const acked = (await Promise.all(writers)).flat();
        await compactor;
        expect(compactions).toBe(10);
        const total = 4 * per;
        expect([...acked].sort((x, y) => x - y)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
        await logOf(a).compact();
        const got = await logOf(a).read();
        // At least the newest 20 kept, one range ending at the newest, and first_seq is its start.
        expect(got.last_seq).toBe(total);
        expect(got.events.length).toBeGreaterThanOrEqual(20);
        expect(got.events.length).toBeLessThan(total);
        expect(got.first_seq).toBe(got.events[0]!.seq);
        expect(got.events.map((e) => e.seq)).toEqual(
          Array.from({ length: got.events.length }, (_, i) => got.first_seq! + i),
        );
        // The next append numbers on; a read from before first_seq starts at first_seq.
        expect((await logOf(b).append(ev(9, 0))).seq).toBe(total + 1);
        // (That append may have compacted again: a server compacts as it appends.)
        const head = await logOf(b).read({ after: 0, limit: 1 });
        expect(head.first_seq).toBeGreaterThanOrEqual(got.first_seq!);
        expect(head.events[0]!.seq).toBe(head.first_seq);
      });
    });
  });
}
