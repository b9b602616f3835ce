// The local events log (`.hub/coord.events.log/`): what an append costs does not grow with what the log retains
// (counted in work done, never timed), and a handle that remembers the newest segment still numbers right when
// other handles append, rotate segments or compact meanwhile.
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalEventLog, LogWork } from '../src/state/backends/local-event-log.js';
import { createLocalStore, type DocumentStore } from '../src/state/index.js';
import { letGo } from './fixtures/logged-events.js';

let tmp: string;
let n = 0;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'hub-events-local-'));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const ev = (w: number, i: number) => ({
  id: `ev-${w}-${i}`,
  timestamp: new Date().toISOString(),
  source: 'test',
  kind: 'Tick',
  data: { w, i },
});
const filled = (count: number) => Array.from({ length: count }, (_, i) => ({ ...ev(0, i), seq: i + 1 }));
const hubDir = () => {
  const d = join(tmp, `ws${n++}`, '.hub');
  mkdirSync(d, { recursive: true });
  return d;
};
const open = (dir: string, segmentEvents = 100) =>
  createLocalStore({ dir, segmentEvents, retention: { count: 10_000_000, days: 0 } });
const logOf = (s: DocumentStore) => s.events as LocalEventLog;
const segmentsOf = (dir: string) =>
  readdirSync(join(dir, 'coord.events.log'))
    .filter((f) => f.endsWith('.jsonl'))
    .sort();

/** The work `count` appends did on a warm handle (its first append done before). */
async function workOf(store: DocumentStore, count: number): Promise<LogWork> {
  await logOf(store).append(ev(1, -1));
  const before = { ...logOf(store).work };
  for (let i = 0; i < count; i++) await logOf(store).append(ev(1, i));
  const after = logOf(store).work;
  return {
    listings: after.listings - before.listings,
    entriesListed: after.entriesListed - before.entriesListed,
    bytesRead: after.bytesRead - before.bytesRead,
  };
}

describe('local events log: the cost of an append', () => {
  it('is the same with 10,000 events retained (101 segments) as with 10: no listing, no re-read of its own tail', async () => {
    const small = open(hubDir());
    await logOf(small).import!(filled(10));
    const big = open(hubDir());
    await logOf(big).import!(filled(10_010));
    const a = await workOf(small, 50);
    const b = await workOf(big, 50);
    expect(b).toEqual(a);
    // A handle that appended last knows the log's end: it lists nothing and reads nothing back.
    expect(b).toEqual({ listings: 0, entriesListed: 0, bytesRead: 0 });
    expect((await logOf(big).read({ after: 10_000 })).events.map((e) => e.seq).at(-1)).toBe(10_010 + 51);
  });
});

describe('local events log: a handle that remembers the end of the log', () => {
  it('numbers on after what other handles appended, across the segments they started', async () => {
    const dir = hubDir();
    const a = open(dir, 3);
    const b = open(dir, 3);
    const seqs: number[] = [];
    for (let i = 0; i < 20; i++) {
      seqs.push((await logOf(a).append(ev(0, i))).seq!);
      // b appends 0, 1, 2 or 3 events in between: a's remembered segment is full, rotated past, or still open.
      for (let k = 0; k < i % 4; k++) seqs.push((await logOf(b).append(ev(1, i * 10 + k))).seq!);
    }
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const all = (await logOf(a).read()).events;
    expect(all.map((e) => e.seq)).toEqual(seqs);
    // Every segment holds at most 3 events and is named by its first sequence.
    for (const f of segmentsOf(dir)) {
      const lines = readFileSync(join(dir, 'coord.events.log', f), 'utf8')
        .split('\n')
        .filter(Boolean);
      expect(lines.length).toBeLessThanOrEqual(3);
      expect(lines.length).toBeGreaterThan(0);
      expect(JSON.parse(lines[0] as string).seq).toBe(Number(f.slice(0, 16)));
    }
  });

  it('sees a line appended to its segment behind its back (a torn one cut, a foreign one refused)', async () => {
    const dir = hubDir();
    const s = open(dir);
    await logOf(s).append(ev(0, 0));
    await logOf(s).append(ev(0, 1));
    const seg = join(dir, 'coord.events.log', `${'1'.padStart(16, '0')}.jsonl`);
    await letGo();
    appendFileSync(seg, '{"id":"half","seq":3,');
    expect((await logOf(s).append(ev(0, 2))).seq).toBe(3);
    await letGo();
    appendFileSync(seg, `${JSON.stringify({ ...ev(9, 9), seq: 4 })}\n`);
    expect((await logOf(s).append(ev(0, 3))).seq).toBe(5);
    await letGo();
    appendFileSync(seg, 'not an event\n');
    await expect(logOf(s).append(ev(0, 4))).rejects.toMatchObject({
      code: 'refused',
      details: { rule: 'log_last_line' },
    });
  });

  it('starts over from the folder when its segment was removed (the log folder deleted by hand)', async () => {
    const dir = hubDir();
    const s = open(dir);
    await logOf(s).append(ev(0, 0));
    await rm(join(dir, 'coord.events.log'), { recursive: true });
    expect((await logOf(s).append(ev(0, 1))).seq).toBe(1);
    expect(segmentsOf(dir)).toEqual([`${'1'.padStart(16, '0')}.jsonl`]);
  });

  it('keeps nothing of an append that was refused (an event over 64 KiB after one that fits)', async () => {
    const dir = hubDir();
    const s = open(dir);
    await logOf(s).append({ ...ev(0, 0), id: 'same' });
    await expect(
      logOf(s).appendMany([
        { ...ev(0, 1), id: 'same' },
        { ...ev(0, 2), data: { note: 'x'.repeat(70 * 1024) } },
      ]),
    ).rejects.toMatchObject({ details: { rule: 'max_event_bytes' } });
    // Neither the refused batch's sequences nor its ids were taken.
    const got = await logOf(s).append({ ...ev(0, 3), id: 'same' });
    expect(got).toEqual({ seq: 2, id: 'same~2' });
  });
});
