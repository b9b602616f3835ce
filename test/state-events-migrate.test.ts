// The legacy `coord.events` document and the events log together: `hub state migrate` (migrateState) reads the
// document of a source that never recorded into its log, copies a source's log with its sequences, and a repeated
// migration leaves the target's log as it is. The document itself stays in place for older builds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalStore, createMemoryStore, migrateState } from '../src/state/index.js';

const dirs: string[] = [];
const local = () => {
  const dir = mkdtempSync(join(tmpdir(), 'hub-events-migrate-'));
  dirs.push(dir);
  return createLocalStore({ dir: join(dir, '.hub') });
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const legacy = {
  events: [
    { id: 'old-a', timestamp: '2026-01-01T00:00:00.000Z', source: 's', kind: 'K', data: {}, seq: 8 },
    { id: 'old-b', timestamp: '2026-01-01T00:00:01.000Z', source: 's', kind: 'K', data: {} },
  ],
  last_seq: 9,
};
const ev = (id: string) => ({ id, timestamp: new Date().toISOString(), source: 's', kind: 'K', data: {} });

describe('hub state migrate and the events log', () => {
  it('migrates the legacy document of a source that never recorded into its log into the target log', async () => {
    const from = local();
    const etag = await from.write('coord.events', legacy, '""');
    const to = createMemoryStore();
    const report = await migrateState(from, to, { overwrite: false });
    expect(report).toMatchObject({ events: 2, events_copied: 2 });
    expect((await to.events!.read()).events.map((e) => [e.id, e.seq])).toEqual([
      ['old-a', 8],
      ['old-b', 9],
    ]);
    expect((await to.events!.append(ev('new'))).seq).toBe(10);
    // The document was copied as a document too, and the source keeps it unchanged.
    expect((await to.read('coord.events')).value).toEqual(legacy);
    expect(await from.read('coord.events')).toEqual({ value: legacy, etag });
  });

  it('copies a log with its sequences from a store holding both, and a repeated migration changes nothing', async () => {
    const from = local();
    await from.write('coord.events', legacy, '""');
    for (let i = 0; i < 30; i++) await from.events!.append(ev(`e${i}`));
    const source = await from.events!.read();
    expect(source).toMatchObject({ first_seq: 8, last_seq: 39 });
    const to = local();
    const first = await migrateState(from, to, { overwrite: false });
    expect(first).toMatchObject({ events: 32, events_copied: 32 });
    const copied = await to.events!.read();
    expect(copied).toEqual(source);
    const again = await migrateState(from, to, { overwrite: false });
    expect(again).toMatchObject({ events: 32, events_copied: 0 });
    expect(await to.events!.read()).toEqual(source);
    expect((await to.events!.append(ev('next'))).seq).toBe(40);
  });

  it('refuses to copy into a target whose log holds other events', async () => {
    const from = createMemoryStore();
    await from.events!.append(ev('a'));
    await from.events!.append(ev('b'));
    const to = createMemoryStore();
    await to.events!.append(ev('other'));
    await expect(migrateState(from, to, { overwrite: true })).rejects.toMatchObject({
      code: 'refused',
      details: { rule: 'log_empty' },
    });
  });
});
