// A change's events travel in its document (the outbox) so that the change costs one durable write: its line in the
// events log is written after, and synced only every few changes. These tests take away what a machine crash
// can take away (the log's unsynced tail) or what a killed writer leaves undone (the line after the document), and
// check that the next append puts every event of a change that was made back with the sequence it was given,
// and nothing else.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStore, type DocumentStore } from '../src/state/index.js';
import { letGo } from './fixtures/logged-events.js';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'hub-outbox-'));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const OUTBOX = 'hub:outbox';
let n = 0;
const hubDir = () => {
  const d = join(tmp, `ws${n++}`, '.hub');
  mkdirSync(d, { recursive: true });
  return d;
};
const ev = (id: string) => ({ id, timestamp: new Date().toISOString(), source: 't', kind: 'K', subject: id });

/** One change of `doc`: its list gains `id`, and the change records the event `id`. */
const change = (s: DocumentStore, doc: string, id: string) =>
  s.update!<{ ids: string[] }, void>(doc, (cur) => ({
    value: { ids: [...(cur?.ids ?? []), id] },
    result: undefined,
    events: [ev(id)],
  }));

const logDir = (hub: string) => join(hub, 'coord.events.log');
const newestSegment = (hub: string) =>
  join(
    logDir(hub),
    readdirSync(logDir(hub))
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .at(-1)!,
  );
const marker = (hub: string) => JSON.parse(readFileSync(join(logDir(hub), 'recovery.json'), 'utf8'));

/** What a machine crash can leave: the newest segment cut after its last synced line, then zeros; a new boot. */
async function crash(hub: string): Promise<number> {
  await letGo();
  const synced: number = marker(hub).synced;
  const seg = newestSegment(hub);
  const lines = readFileSync(seg, 'utf8').split('\n');
  let keep = 0;
  for (const l of lines) {
    if (l === '' || JSON.parse(l).seq > synced) break;
    keep += Buffer.byteLength(l) + 1;
  }
  truncateSync(seg, keep);
  appendFileSync(seg, Buffer.alloc(300));
  const m = marker(hub);
  writeFileSync(join(logDir(hub), 'recovery.json'), JSON.stringify({ ...m, boot: 'an-earlier-boot' }));
  return synced;
}

async function allEvents(s: DocumentStore) {
  const r = await s.events!.read();
  return r.events.map((e) => [e.seq, e.id]);
}

describe('local events log: the outbox', () => {
  it('a machine crash that loses the unsynced tail of the log loses no event of a change that was made', async () => {
    const hub = hubDir();
    const s = createLocalStore({ dir: hub });
    await s.events!.append(ev('first'));
    for (let i = 0; i < 5; i++) {
      await change(s, 'objectives', `o${i}`);
      await change(s, 'handoffs', `h${i}`);
    }
    const before = await allEvents(s);
    expect(before).toHaveLength(11);
    const synced = await crash(hub);
    // The crash took lines away: the changes were acknowledged, so their events must come back.
    expect(synced).toBeLessThan(11);

    const after = createLocalStore({ dir: hub });
    const { seq } = await after.events!.append(ev('after-reboot'));
    expect(seq).toBe(12);
    expect(await allEvents(after)).toEqual([...before, [12, 'after-reboot']]);
    // Every line of the segment is a whole event again.
    const text = readFileSync(newestSegment(hub), 'utf8');
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).seq),
    ).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('a crash that left a hole of zeros before lines written back: cut from the hole, and put back in order', async () => {
    const hub = hubDir();
    const s = createLocalStore({ dir: hub });
    await s.events!.append(ev('first'));
    for (let i = 0; i < 6; i++) await change(s, 'objectives', `o${i}`);
    const before = await allEvents(s);
    await letGo();
    // The line after the synced one lost to zeros; the ones after it written back.
    const synced: number = marker(hub).synced;
    const seg = newestSegment(hub);
    const lines = readFileSync(seg, 'utf8').split('\n').filter(Boolean);
    const hole = lines.findIndex((l) => JSON.parse(l).seq === synced + 1);
    expect(hole).toBeGreaterThan(0);
    lines[hole] = '\0'.repeat(lines[hole]!.length);
    writeFileSync(seg, `${lines.join('\n')}\n`);
    writeFileSync(
      join(logDir(hub), 'recovery.json'),
      JSON.stringify({ ...marker(hub), boot: 'an-earlier-boot' }),
    );
    const after = createLocalStore({ dir: hub });
    await after.events!.append(ev('next'));
    expect(await allEvents(after)).toEqual([...before, [8, 'next']]);
  });

  it('a writer killed between its document and its log line: the next append records the change with its sequence', async () => {
    const hub = hubDir();
    const s = createLocalStore({ dir: hub });
    await change(s, 'objectives', 'a');
    await change(s, 'objectives', 'b');
    // The state a kill leaves after the document was written and before its line: the line missing, the change
    // in the marker as pending.
    await letGo();
    const seg = newestSegment(hub);
    const lines = readFileSync(seg, 'utf8').split('\n').filter(Boolean);
    writeFileSync(seg, `${lines[0]}\n`);
    writeFileSync(
      join(logDir(hub), 'recovery.json'),
      JSON.stringify({ ...marker(hub), pending: { doc: 'objectives', from: 2, to: 2 } }),
    );
    const other = createLocalStore({ dir: hub });
    expect((await other.events!.append(ev('next'))).seq).toBe(3);
    expect(await allEvents(other)).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'next'],
    ]);
  });

  it('a killed writer whose document was never written leaves no event, and its sequence is given to the next', async () => {
    const hub = hubDir();
    const s = createLocalStore({ dir: hub });
    await change(s, 'objectives', 'a');
    await letGo();
    writeFileSync(
      join(logDir(hub), 'recovery.json'),
      JSON.stringify({ ...marker(hub), pending: { doc: 'objectives', from: 2, to: 2 } }),
    );
    const other = createLocalStore({ dir: hub });
    expect((await other.events!.append(ev('next'))).seq).toBe(2);
    expect(await allEvents(other)).toEqual([
      [1, 'a'],
      [2, 'next'],
    ]);
    expect((await other.read<{ ids: string[] }>('objectives')).value).toEqual({ ids: ['a'] });
  });

  it('keeps the outbox short: the log is synced every few changes, and synced events leave the outbox', async () => {
    const hub = hubDir();
    const s = createLocalStore({ dir: hub });
    let most = 0;
    for (let i = 0; i < 100; i++) {
      const synced = i === 0 ? 0 : marker(hub).synced;
      await change(s, 'objectives', `o${i}`);
      const raw = JSON.parse(readFileSync(join(hub, 'objectives.json'), 'utf8'));
      most = Math.max(most, raw[OUTBOX]?.length ?? 0);
      // Only events the log did not hold synced when the document was written.
      for (const [seq] of raw[OUTBOX] ?? []) expect(seq).toBeGreaterThan(synced);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(32);
    // A synced append (an event of its own) syncs what came before it.
    await s.events!.append(ev('synced'));
    expect(marker(hub).synced).toBe(101);
  });

  it('a change of more events than an outbox holds syncs its own lines, and its document carries none of them', async () => {
    const hub = hubDir();
    const s = createLocalStore({ dir: hub });
    const many = Array.from({ length: 80 }, (_, i) => ev(`m${i}`));
    await s.update!<{ n: number }, void>('objectives', () => ({
      value: { n: 1 },
      result: undefined,
      events: many,
    }));
    const raw = JSON.parse(readFileSync(join(hub, 'objectives.json'), 'utf8'));
    expect(raw[OUTBOX]).toBeUndefined();
    expect(marker(hub).synced).toBe(80);
    // A crash now takes nothing: the lines are synced.
    await crash(hub);
    const after = createLocalStore({ dir: hub });
    await after.events!.append(ev('next'));
    expect((await allEvents(after)).map(([seq]) => seq)).toEqual(Array.from({ length: 81 }, (_, i) => i + 1));
  });

  it('serves documents without their outbox, and refuses a document that names it', async () => {
    const hub = hubDir();
    const s = createLocalStore({ dir: hub });
    await change(s, 'objectives', 'a');
    const raw = JSON.parse(readFileSync(join(hub, 'objectives.json'), 'utf8'));
    // Carried as [seq, line]: the line exactly as the log holds it.
    expect(raw[OUTBOX]).toEqual([[1, readFileSync(newestSegment(hub), 'utf8').trimEnd()]]);
    const got = await s.read('objectives');
    expect(got.value).toEqual({ ids: ['a'] });
    await expect(s.write('mine', { [OUTBOX]: [] }, '')).rejects.toMatchObject({
      code: 'validation',
      details: { field: OUTBOX, rule: 'reserved_key' },
    });
  });

  it('writes that record nothing carry the outbox forward, so a crash after them still loses nothing', async () => {
    const hub = hubDir();
    const s = createLocalStore({ dir: hub });
    await s.events!.append(ev('first'));
    await change(s, 'objectives', 'a');
    // An update with no event, an append and a put of the same document.
    await s.update!<{ ids: string[]; note?: string }, void>('objectives', (cur) => ({
      value: { ...cur!, note: 'x' },
      result: undefined,
    }));
    await s.append('objectives', 'more', { k: 1 });
    const cur = await s.read('objectives');
    await s.write('objectives', { ...(cur.value as object), put: true }, cur.etag!);
    const before = await allEvents(s);
    await crash(hub);
    const after = createLocalStore({ dir: hub });
    await after.events!.append(ev('next'));
    expect(await allEvents(after)).toEqual([...before, [3, 'next']]);
  });

  it('drops a planted outbox entry nested past the depth bound instead of failing the next write', async () => {
    const hub = hubDir();
    const s = createLocalStore({ dir: hub });
    await change(s, 'objectives', 'a');
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    writeFileSync(
      join(hub, 'objectives.json'),
      `{"ids":["a"],"hub:outbox":[{"id":"deep","seq":1,"kind":"K","data":${deep}}]}`,
    );
    // A write that records nothing carries the outbox forward; a change keeps its unsynced events.
    await s.append('objectives', 'more', { k: 1 });
    await change(s, 'objectives', 'b');
    const text = readFileSync(join(hub, 'objectives.json'), 'utf8');
    expect(text).not.toContain('"deep"');
    expect((await s.read('objectives')).value).toEqual({ ids: ['a', 'b'] });
  });

  it('does not carry forward a planted outbox entry longer than an event can be', async () => {
    const hub = hubDir();
    const s = createLocalStore({ dir: hub });
    await change(s, 'objectives', 'a');
    await letGo();
    const big = 'x'.repeat(200 * 1024);
    writeFileSync(
      join(hub, 'objectives.json'),
      JSON.stringify({
        ids: ['a'],
        [OUTBOX]: [[1, JSON.stringify({ id: big, seq: 1 })], { id: big, seq: 2 }],
      }),
    );
    // A write that records nothing carries the outbox forward: not these.
    await s.append('objectives', 'more', { k: 1 });
    const text = readFileSync(join(hub, 'objectives.json'), 'utf8');
    expect(text.length).toBeLessThan(10_000);
    expect((await s.read('objectives')).value).toEqual({ ids: ['a'], more: [{ k: 1 }] });
  });

  it('takes from a planted outbox only whole events that number on from the log, and only after a crash', async () => {
    const hub = hubDir();
    const s = createLocalStore({ dir: hub });
    await change(s, 'objectives', 'a');
    const planted = {
      ids: ['a'],
      [OUTBOX]: [
        { id: 'x2', seq: 2, kind: 'K' },
        'not an event',
        { id: 'x4', seq: 4, kind: 'K' }, // a gap: never taken
        { id: 'big', seq: 3, kind: 'K', data: 'y'.repeat(70 * 1024) }, // past an event's size: never taken
      ],
    };
    writeFileSync(join(hub, 'objectives.json'), JSON.stringify(planted));
    // No crash: nothing is taken from it.
    expect((await createLocalStore({ dir: hub }).events!.append(ev('b'))).seq).toBe(2);
    await crash(hub);
    const after = createLocalStore({ dir: hub });
    await after.events!.append(ev('c'));
    const ids = (await allEvents(after)).map(([, id]) => id);
    expect(ids).toEqual(['a', 'b', 'c']);
  });
});
