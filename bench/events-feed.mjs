#!/usr/bin/env node
// Recording events with a per-workspace sequence (recordEvent: an append to the workspace's events log, sequence
// assigned in the same step) against a plain append to a document (store.append, no sequence), on the local
// backend (one writer, then 8 store handles at once) and in memory; the cost of one poll by sequence (eventsFeed
// with after_seq); an objective change (its write and its recorded event) against the write alone. Then the
// issue-31 goals (`goals` in the output): recording with 100,000 events retained against 100 (local, memory); a
// poll by after_seq with nothing new at 100,000 retained (local, in process); 8 writers x 1,000 events on every
// backend (local, memory, http through a real hub server, dynamodb on dynalite, mongodb when HUB_TEST_MONGODB_URL
// names a server): gaps, duplicates, lost; and
// DynamoDB recording against a raw conditional put of the same item (dynalite).
// Usage: node bench/events-feed.mjs [--events 400] [--polls 50] [--retained 100000] [--per-writer 1000] [--quick]
// (stdout: exactly one JSON object; progress on stderr). src/ is bundled with esbuild into a temp file.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { importSrc } from './lib/bundle.mjs';
import { createTempDir, median, progress, QUICK, round, runBench } from './lib/measure.mjs';

const SELF = fileURLToPath(import.meta.url);
const CREDENTIALS = { accessKeyId: 'bench', secretAccessKey: 'bench-secret' };
const REGION = 'us-east-1';

if (process.argv[2] === '--dynalite') {
  // The dynalite child: listens on a loopback port, prints it, serves until stdin closes.
  const { default: dynalite } = await import('dynalite');
  const server = dynalite({ createTableMs: 0 });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  process.stdout.write(`${server.address().port}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
  await new Promise(() => {});
}

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: QUICK ? '40' : '400' },
    polls: { type: 'string', default: QUICK ? '10' : '50' },
    retained: { type: 'string', default: QUICK ? '10000' : '100000' },
    'per-writer': { type: 'string', default: QUICK ? '100' : '1000' },
    quick: { type: 'boolean', default: false },
  },
});
const EVENTS = Number(values.events);
const POLLS = Number(values.polls);
const RETAINED = Number(values.retained);
const PER_WRITER = Number(values['per-writer']);
const WRITERS = 8;
/** Blocks of recording each side of the retained ratio does, alternating. */
const RETAINED_ROUNDS = QUICK ? 10 : 30;

async function bundle(dir) {
  return importSrc(join(dir, 'events.mjs'), [
    "export { createDynamoStore, createHttpStore, createLocalStore, createMemoryStore, createMongoStore, loadDynamoSdk, resolveMongoTarget } from './src/state/index.ts';",
    "export { eventsFeed, recordEvent, upsertObjective } from './src/coord/index.ts';",
    "export { startHubServer } from './src/surfaces/http/index.ts';",
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
  // same note appended by one atomic update, what an objective change cost before it was recorded), and against
  // the same change with nothing recorded (upsertObjective on a store that drops the events it is given: the cost
  // of recording alone). The sides run in alternating blocks, each on its own store, so that what the disk is
  // doing (the writeback of the phases before) falls on all of them alike; per side, the median of its blocks.
  progress('objective changes: write and record, against the write alone (alternating blocks)');
  const note = (i) => `- n${i}`;
  const os = m.createLocalStore({ dir: localDir() });
  const ws = m.createLocalStore({ dir: localDir() });
  const us = m.createLocalStore({ dir: localDir() });
  const unrecorded = {
    ...us,
    // Reported as recorded in the step (none), so that nothing records them after the write either.
    update: async (name, fn) => ({
      ...(await us.update(name, async (cur) => {
        const { events: _dropped, ...rest } = await fn(cur);
        return rest;
      })),
      recorded: [],
    }),
  };
  const upsert = (store) => {
    const deps = { store, retries: 1, now: () => new Date() };
    return (i) => m.upsertObjective(deps, { id: 'o', title: 'O', agent_notes: note(i) }, { root: dir });
  };
  const writeOnly = (i) =>
    ws.update('objectives', (cur) => {
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
    });
  // The same change, each one after this process returned to its event loop: the log's lock, which a chain of
  // changes keeps (it lingers until the process turns), is taken anew each time, as by a CLI process or a server
  // request of its own.
  const ts = m.createLocalStore({ dir: localDir() });
  const eachTurn = upsert(ts);
  const sides = {
    change: upsert(os),
    write_only: writeOnly,
    unrecorded: upsert(unrecorded),
    change_each_turn: async (i) => {
      await new Promise((r) => setImmediate(r));
      return eachTurn(i);
    },
  };
  const block = Math.max(5, Math.min(50, Math.floor(EVENTS / 8)));
  const perSide = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  for (const one of Object.values(sides)) await one(-1); // each store's document made before the clock runs
  for (let done = 0, i = 0; done < EVENTS; done += block)
    for (const [name, one] of Object.entries(sides)) {
      const start = process.hrtime.bigint();
      for (let j = 0; j < block; j++) await one(i++);
      perSide[name].push((block * 1e9) / Number(process.hrtime.bigint() - start));
    }
  out.objective_change_per_s = round(median(perSide.change));
  out.objective_write_only_per_s = round(median(perSide.write_only));
  out.objective_unrecorded_per_s = round(median(perSide.unrecorded));
  out.objective_change_vs_write_only = round(out.objective_change_per_s / out.objective_write_only_per_s, 2);
  out.objective_change_vs_unrecorded = round(out.objective_change_per_s / out.objective_unrecorded_per_s, 2);
  out.objective_change_each_turn_per_s = round(median(perSide.change_each_turn));
  out.objective_change_each_turn_vs_write_only = round(
    out.objective_change_each_turn_per_s / out.objective_write_only_per_s,
    2,
  );
  const recorded = (await m.eventsFeed(os)).events.filter((e) => e.subject === 'o').length;
  const changes = perSide.change.length * block + 1;
  if (recorded !== changes) throw new Error(`expected ${changes} objective events, the feed has ${recorded}`);

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
  out.read_log_tail_ms = await time(() => store.events.read({ after: last }));
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
  out.goals = await goals(m, localDir, time);
  return out;
});

/** A log of `n` events (imported in one step: recording them one by one would take minutes), as a feed holds. */
function filled(n) {
  return Array.from({ length: n }, (_, i) => ({ ...event(0, i), seq: i + 1 }));
}

/** Events per second of one writer recording `count` events into `store` (after 20 to warm up, unless `warm`). */
async function recordRate(m, store, count, warm = true) {
  if (warm) for (let i = 0; i < 20; i++) await m.recordEvent(store, event(9, i));
  if (count === 0) return 0;
  return rate(
    () => store,
    1,
    count,
    (s, w, i) => m.recordEvent(s, event(w, i)),
  );
}

/** 8 writers x `per` events through `open()` handles: gaps, duplicates and lost (acknowledged but not in the log). */
async function writers8(m, open, per) {
  const handles = Array.from({ length: WRITERS }, () => open());
  const acked = [];
  const start = process.hrtime.bigint();
  await Promise.all(
    handles.map(async (s, w) => {
      for (let i = 0; i < per; i++) {
        const got = await m.recordEvent(s, event(w, i));
        acked.push([got.seq, got.id]);
      }
    }),
  );
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const log = await handles[0].events.read({ after: 0 });
  const seqs = log.events.map((e) => e.seq);
  let gaps = 0;
  for (let i = 1; i < seqs.length; i++) if (seqs[i] !== seqs[i - 1] + 1) gaps++;
  const ids = new Map(log.events.map((e) => [e.seq, e.id]));
  const duplicates = seqs.length - new Set(seqs).size + (acked.length - new Set(acked.map(([s]) => s)).size);
  const lost = acked.filter(([seq, id]) => ids.get(seq) !== id).length;
  for (const h of handles) await h.close?.();
  return {
    events: WRITERS * per,
    recorded: seqs.length,
    gaps,
    duplicates,
    lost,
    per_s: round((WRITERS * per * 1000) / ms),
  };
}

/** Starts the dynalite child; returns its endpoint and a stop function. */
async function startDynalite() {
  const child = spawn(process.execPath, [SELF, '--dynalite'], { stdio: ['pipe', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout })) {
    if (/^\d+$/.test(line)) return { endpoint: `http://127.0.0.1:${line}`, stop: () => child.stdin.end() };
  }
  throw new Error('dynalite did not start');
}

async function goals(m, localDir, time) {
  const g = {};
  // Recording at 100,000 retained against 100 (one writer; retention above both, so nothing is compacted).
  const retention = { count: RETAINED * 2, days: 0 };
  for (const [name, open] of [
    ['local', () => m.createLocalStore({ dir: localDir(), retention })],
    ['memory', () => m.createMemoryStore({ retention })],
  ]) {
    progress(`recording with ${RETAINED} retained against 100 (${name})`);
    const small = open();
    await small.events.import(filled(100));
    const big = open();
    await big.events.import(filled(RETAINED));
    // Short blocks, alternating which side goes first, many rounds: the machine's load drifts (fsync latency
    // above all), and both sides must meet the same drift. Each side's rate is the median of its blocks.
    const xs = [];
    const ys = [];
    await recordRate(m, big, 0);
    await recordRate(m, small, 0);
    // In memory an event takes microseconds: its blocks are longer, or a pause of the collector decides them.
    const block = name === 'memory' ? EVENTS * 5 : Math.max(10, Math.round(EVENTS / 10));
    for (let r = 0; r < RETAINED_ROUNDS; r++) {
      const pair = r % 2 ? [small, big] : [big, small];
      for (const s of pair) (s === big ? xs : ys).push(await recordRate(m, s, block, false));
    }
    g[`${name}_record_retained_${RETAINED}_per_s`] = median(xs);
    g[`${name}_record_retained_100_per_s`] = median(ys);
    g[`${name}_record_retained_ratio`] = round(median(xs) / median(ys), 2);
    if (name === 'local') {
      const last = (await big.events.read({ after: RETAINED + 10 ** 6 })).last_seq;
      g[`local_poll_nothing_new_${RETAINED}_retained_ms`] = await time(() =>
        m.eventsFeed(big, { after_seq: last }),
      );
    }
  }

  // 8 writers x PER_WRITER events on every backend.
  progress(`8 writers x ${PER_WRITER} events: local`);
  const d8 = localDir();
  g.writers8_local = await writers8(
    m,
    () => m.createLocalStore({ dir: d8, lockTimeoutMs: 120_000 }),
    PER_WRITER,
  );
  progress(`8 writers x ${PER_WRITER} events: memory`);
  const mem = m.createMemoryStore();
  g.writers8_memory = await writers8(m, () => mem, PER_WRITER);
  progress(`8 writers x ${PER_WRITER} events: http (a hub server, local store behind it)`);
  const root = join(localDir(), '..');
  const server = await m.startHubServer({
    mode: 'web',
    root,
    env: { HUB_CACHE_DIR: 'off' },
    host: '127.0.0.1',
    port: 0,
    explicitPort: true,
    uiDir: null,
  });
  try {
    const url = `http://127.0.0.1:${server.listening.port}`;
    g.writers8_http = await writers8(m, () => m.createHttpStore({ url, timeoutMs: 60_000 }), PER_WRITER);
  } finally {
    await server.close();
  }

  // MongoDB only against a server the caller names (as its tests): a fresh workspace of the collection, removed after.
  const mongoUrl = process.env.HUB_TEST_MONGODB_URL;
  if (mongoUrl) {
    progress(
      `8 writers x ${PER_WRITER} events: mongodb (${m.resolveMongoTarget({ url: mongoUrl }).shownUrl})`,
    );
    const target = m.resolveMongoTarget({ url: mongoUrl, collection: 'hub_state_bench' });
    const workspaceId = `bench-${process.pid}-${Date.now()}`;
    try {
      g.writers8_mongodb = await writers8(
        m,
        () => m.createMongoStore({ target, orgId: 'bench', workspaceId }),
        PER_WRITER,
      );
    } finally {
      const { MongoClient } = await import('mongodb');
      const client = new MongoClient(mongoUrl);
      await client
        .db(target.database)
        .collection(target.collection)
        .deleteMany({ '_id.workspace_id': workspaceId });
      await client.close();
    }
  } else g.writers8_mongodb = 'skipped: set HUB_TEST_MONGODB_URL=mongodb://... to run it against a server';

  progress(`8 writers x ${PER_WRITER} events: dynamodb (dynalite); record against a raw conditional put`);
  const dl = await startDynalite();
  try {
    const opts = (workspaceId) => ({
      endpoint: dl.endpoint,
      region: REGION,
      orgId: 'bench',
      workspaceId,
      env: {},
      clientConfig: { credentials: CREDENTIALS },
    });
    await m.createDynamoStore(opts('init')).init();
    g.writers8_dynamodb = await writers8(m, () => m.createDynamoStore(opts('w8')), PER_WRITER);
    const store = m.createDynamoStore(opts('rate'));
    const sdk = await m.loadDynamoSdk();
    const raw = new sdk.DynamoDBClient({ endpoint: dl.endpoint, region: REGION, credentials: CREDENTIALS });
    let n = 0;
    const rawPut = async () => {
      const e = event(0, n++);
      await raw.send(
        new sdk.PutItemCommand({
          TableName: 'hub_state',
          Item: {
            pk: { S: 'ORG#bench#WS#raw' },
            sk: { S: `LOG#events#${String(n).padStart(16, '0')}` },
            body: { S: JSON.stringify({ ...e, seq: n }) },
            at: { S: String(Date.now()) },
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    };
    const hubs = [];
    const raws = [];
    for (let r = 0; r < 3; r++) {
      hubs.push(await recordRate(m, store, EVENTS));
      raws.push(await rate(() => raw, 1, EVENTS, rawPut));
    }
    g.dynamodb_record_per_s = median(hubs);
    g.dynamodb_raw_put_per_s = median(raws);
    g.dynamodb_record_vs_raw_put = round(median(hubs) / median(raws), 2);
    raw.destroy();
    await store.close();
  } finally {
    dl.stop();
  }
  return g;
}
