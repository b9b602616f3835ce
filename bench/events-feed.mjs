#!/usr/bin/env node
// Recording events with a per-workspace sequence (recordEvent: the document's atomic update, sequence assigned
// inside it) against the plain append it replaced (store.append, no sequence), on the local backend (one writer,
// then 8 store handles at once) and in memory; then the cost of one poll by sequence (eventsFeed with after_seq)
// on a feed of that many events, against reading the events document alone; and an objective change (its write
// and its recorded event) against the write alone.
// Usage: node bench/events-feed.mjs [--events 400] [--polls 50] [--quick]
// (stdout: exactly one JSON object; progress on stderr). src/ is bundled with esbuild into a temp file.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { importSrc } from './lib/bundle.mjs';
import { createTempDir, median, progress, QUICK, round, runBench } from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: QUICK ? '40' : '400' },
    polls: { type: 'string', default: QUICK ? '10' : '50' },
    quick: { type: 'boolean', default: false },
  },
});
const EVENTS = Number(values.events);
const POLLS = Number(values.polls);
const WRITERS = 8;

async function bundle(dir) {
  return importSrc(join(dir, 'events.mjs'), [
    "export { createLocalStore, createMemoryStore } from './src/state/index.ts';",
    "export { eventsFeed, recordEvent, upsertObjective } from './src/coord/index.ts';",
  ]);
}

const event = (w, i) => ({
  id: `ev-${w}-${i}`,
  timestamp: new Date().toISOString(),
  source: 'bench',
  kind: 'Tick',
  subject: `w${w}`,
  data: { w, i },
});

/** Events per second of `writers` concurrent loops each doing `per` calls of `one(store, w, i)`. */
async function rate(open, writers, per, one) {
  const stores = Array.from({ length: writers }, () => open());
  const start = process.hrtime.bigint();
  await Promise.all(
    stores.map(async (s, w) => {
      for (let i = 0; i < per; i++) await one(s, w, i);
    }),
  );
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return round((writers * per * 1000) / ms);
}

await runBench('events-feed', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-events-'));
  progress('bundling src/ with esbuild');
  const m = await bundle(dir);
  let n = 0;
  const localDir = () => {
    const d = join(dir, `ws${n++}`, '.hub');
    mkdirSync(d, { recursive: true });
    return d;
  };
  const sequencedOne = (s, w, i) => m.recordEvent(s, event(w, i));
  const plainOne = (s, w, i) => s.append('coord.events', 'events', event(w, i));
  const perWriter = Math.max(1, Math.floor(EVENTS / WRITERS));

  const out = { events: EVENTS, writers: WRITERS, quick: QUICK, node: process.version };
  for (const [name, one] of [
    ['plain_append', plainOne],
    ['sequenced', sequencedOne],
  ]) {
    progress(`${name}: local, 1 writer`);
    const d1 = localDir();
    out[`local_1_${name}_per_s`] = await rate(() => m.createLocalStore({ dir: d1 }), 1, EVENTS, one);
    progress(`${name}: local, ${WRITERS} handles`);
    const d8 = localDir();
    out[`local_8_${name}_per_s`] = await rate(
      () => m.createLocalStore({ dir: d8, lockTimeoutMs: 120_000 }),
      WRITERS,
      perWriter,
      one,
    );
    const mem = m.createMemoryStore();
    out[`memory_1_${name}_per_s`] = await rate(() => mem, 1, EVENTS, one);
  }
  out.local_1_sequenced_vs_plain = round(out.local_1_sequenced_per_s / out.local_1_plain_append_per_s, 2);
  out.local_8_sequenced_vs_plain = round(out.local_8_sequenced_per_s / out.local_8_plain_append_per_s, 2);

  // An objective change now writes its document and records its event: against the document write alone (the
  // same note appended by one atomic update, what an objective change cost before it was recorded).
  progress('objective changes: write and record, against the write alone');
  const note = (i) => `- n${i}`;
  const od = localDir();
  const os = m.createLocalStore({ dir: od });
  const deps = { store: os, retries: 1, now: () => new Date() };
  out.objective_change_per_s = await rate(
    () => os,
    1,
    EVENTS,
    (_s, _w, i) => m.upsertObjective(deps, { id: 'o', title: 'O', agent_notes: note(i) }, { root: dir }),
  );
  const wd = localDir();
  out.objective_write_only_per_s = await rate(
    () => m.createLocalStore({ dir: wd }),
    1,
    EVENTS,
    (s, _w, i) =>
      s.update('objectives', (cur) => {
        const doc = cur ?? { objectives: [] };
        const at = new Date().toISOString();
        const o = doc.objectives.find((x) => x.id === 'o');
        if (o) Object.assign(o, { agent_notes: note(i), updated_at: at });
        else
          doc.objectives.push({
            id: 'o',
            title: 'O',
            status: 'pending',
            repos: [],
            created_at: at,
            updated_at: at,
          });
        return { value: doc, result: undefined };
      }),
  );
  out.objective_change_vs_write_only = round(out.objective_change_per_s / out.objective_write_only_per_s, 2);
  const recorded = (await m.eventsFeed(os)).events.filter((e) => e.subject === 'o').length;
  if (recorded !== EVENTS) throw new Error(`expected ${EVENTS} objective events, the feed has ${recorded}`);

  // Polls on a feed of EVENTS recorded events: the newest sequence seen, nothing new (what a poller mostly does).
  progress('polls');
  const d = localDir();
  const store = m.createLocalStore({ dir: d });
  for (let i = 0; i < EVENTS; i++) await m.recordEvent(store, event(0, i));
  const last = (await m.eventsFeed(store)).next_seq;
  if (last !== EVENTS) throw new Error(`expected ${EVENTS} sequenced events, the feed says ${last}`);
  const time = async (fn) => {
    const xs = [];
    for (let i = 0; i < POLLS; i++) {
      const t = process.hrtime.bigint();
      await fn();
      xs.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return round(median(xs), 3);
  };
  out.poll_after_seq_ms = await time(() => m.eventsFeed(store, { after_seq: last }));
  out.poll_since_ms = await time(() => m.eventsFeed(store, { since: '2000-01-01T00:00:00Z' }));
  out.read_document_ms = await time(() => store.read('coord.events'));
  // Delivery: one event recorded, then polled by sequence until it shows (the poll loop's own latency, no sleep).
  const delivery = [];
  for (let i = 0; i < Math.min(POLLS, 20); i++) {
    const t = process.hrtime.bigint();
    await m.recordEvent(store, event(1, i));
    for (;;) {
      const f = await m.eventsFeed(store, { after_seq: last + i });
      if (f.events.length > 0) break;
    }
    delivery.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  out.record_then_poll_ms = round(median(delivery), 3);
  return out;
});
