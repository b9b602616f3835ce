import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HubError, RefusedError, StateConflictError, ValidationError } from '../infra/index.js';
import {
  ACL_COLLECTIONS,
  createLocalStore,
  DERIVED_EVENTS_DOCUMENT,
  type LocalStoreOptions,
} from './index.js';

let root: string;
let hub: string;
const store = (extra: Partial<LocalStoreOptions> = {}) => createLocalStore({ dir: hub, ...extra });
const lockFile = (name: string) => join(hub, 'locks', `${name}.lock`);

/** A lock file as another holder would leave it. */
function plantLock(name: string, holder: { pid: number; host?: string; at?: number }): string {
  mkdirSync(join(hub, 'locks'), { recursive: true });
  const body = JSON.stringify({
    pid: holder.pid,
    host: holder.host ?? hostname(),
    token: 'someone-else',
    at: holder.at ?? Date.now(),
  });
  writeFileSync(lockFile(name), body);
  return body;
}

/** Sets the lock file's times `ms` from now (negative: in the past). */
function ageLock(name: string, ms: number): void {
  const at = new Date(Date.now() + ms);
  utimesSync(lockFile(name), at, at);
}

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err as HubError,
  );

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hub-state-local-'));
  hub = join(root, '.hub');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('local store: documents', () => {
  it('refuses writes to the derived events document while coord.events stays writable', async () => {
    const s = store();
    const err = await failure(s.write(DERIVED_EVENTS_DOCUMENT, { events: [] }, '""'));
    expect(err).toBeInstanceOf(RefusedError);
    expect(err.message).toContain('coord.events');
    expect(await failure(s.append(DERIVED_EVENTS_DOCUMENT, 'events', { at: 1 }))).toBeInstanceOf(
      RefusedError,
    );
    expect(existsSync(join(hub, 'events.json'))).toBe(false);

    const etag = await s.write('coord.events', { events: [{ kind: 'a' }] }, '""');
    const etag2 = await s.append('coord.events', 'events', { kind: 'b' });
    expect(etag2).not.toBe(etag);
    expect((await s.read('coord.events')).value).toEqual({ events: [{ kind: 'a' }, { kind: 'b' }] });
  });

  it('lays out the ACL collection directories on first write', async () => {
    const s = store();
    await s.read('objectives');
    expect(existsSync(hub)).toBe(false);
    await s.write('objectives', { objectives: [] }, '""');
    for (const c of ['branches', 'leases', 'worktrees', 'claims', 'agents', 'events']) {
      expect(statSync(join(hub, c)).isDirectory(), c).toBe(true);
    }
    expect([...ACL_COLLECTIONS].sort()).toEqual([
      'agents',
      'branches',
      'claims',
      'events',
      'leases',
      'worktrees',
    ]);
  });

  it('keeps documents across store instances (another CLI process sees them)', async () => {
    const etag = await store().write('approvals', { requests: [{ id: 'r1' }] }, '""');
    expect(await store().read('approvals')).toEqual({ value: { requests: [{ id: 'r1' }] }, etag });
    expect(JSON.parse(readFileSync(join(hub, 'approvals.json'), 'utf8'))).toEqual({
      requests: [{ id: 'r1' }],
    });
  });

  it('writes compact JSON and still reads files written indented by earlier versions', async () => {
    const value = { objectives: [{ id: 'a', repos: ['./x'] }], n: 1 };
    mkdirSync(hub, { recursive: true });
    writeFileSync(join(hub, 'objectives.json'), `${JSON.stringify(value, null, 2)}\n`);
    const s = store();
    const { etag } = await s.read('objectives');
    expect((await s.read('objectives')).value).toEqual(value);
    const next = await s.write('objectives', { ...value, n: 2 }, etag!);
    expect(readFileSync(join(hub, 'objectives.json'), 'utf8')).toBe(
      `${JSON.stringify({ ...value, n: 2 })}\n`,
    );
    await s.append('objectives', 'objectives', { id: 'b' });
    await s.update!('objectives', (cur: { n: number } | undefined) => ({
      value: { ...cur!, n: 3 },
      result: 0,
    }));
    const text = readFileSync(join(hub, 'objectives.json'), 'utf8');
    expect(text).not.toContain('\n ');
    expect(JSON.parse(text)).toMatchObject({ n: 3, objectives: [{ id: 'a' }, { id: 'b' }] });
    expect(next).not.toBe(etag);
  });

  it('refuses a write from inside an update of the same document instead of waiting for itself', async () => {
    const s = store({ lockTimeoutMs: 30_000 });
    const err = await failure(
      s.update!('objectives', async () => {
        await s.write('objectives', { objectives: [] }, '""');
        return { value: { objectives: ['never'] }, result: undefined };
      }),
    );
    expect(err).toBeInstanceOf(HubError);
    expect(err.details).toMatchObject({ rule: 'no_reentrant_update' });
    expect(existsSync(join(hub, 'objectives.json'))).toBe(false);
    // Through another handle on the same folder too: it would otherwise queue behind the update that waits for it.
    const other = store({ lockTimeoutMs: 30_000 });
    const viaOther = await failure(
      s.update!('objectives', async () => {
        await other.write('objectives', { objectives: [] }, '""');
        return { value: { objectives: ['never'] }, result: undefined };
      }),
    );
    expect(viaOther.details).toMatchObject({ rule: 'no_reentrant_update' });
    // The lock was released: the next update goes through.
    await s.update!('objectives', () => ({ value: { objectives: ['ok'] }, result: undefined }));
    expect(
      await failure(s.update!(DERIVED_EVENTS_DOCUMENT, () => ({ value: {}, result: 0 }))),
    ).toBeInstanceOf(RefusedError);
  });

  it("keeps a collection's documents in the collection's folder, and lists only regular files there", async () => {
    const s = store();
    await s.write('claims/platform~identity', { claims: [] }, '""');
    expect(existsSync(join(hub, 'claims', 'platform~identity.json'))).toBe(true);
    writeFileSync(join(hub, 'claims', 'notes.txt'), 'x');
    mkdirSync(join(hub, 'claims', 'sub.json'));
    expect(await s.list!('claims')).toEqual(['claims/platform~identity']);
  });

  it('refuses document names that are not plain names', async () => {
    for (const name of ['../escape', 'a/b/c', 'a/../b', 'Upper', 'Upper/x', '', '.hidden']) {
      expect(await failure(store().write(name, { x: 1 }, '""')), name).toBeInstanceOf(ValidationError);
    }
    expect(readdirSync(root)).toEqual([]);
  });

  it.each(['read', 'write'] as const)(
    'reports a corrupt file by name on %s, keeps its bytes aside, and starts fresh on the next write',
    async (op) => {
      const s = store();
      await s.write('objectives', { objectives: [{ id: 'a', title: 'x'.repeat(50) }] }, '""');
      const file = join(hub, 'objectives.json');
      const full = readFileSync(file);
      const truncated = full.subarray(0, Math.floor(full.length / 2));
      writeFileSync(file, truncated);

      const err = await failure(op === 'read' ? s.read('objectives') : s.write('objectives', { x: 1 }, '""'));
      expect(err).toBeInstanceOf(HubError);
      expect(err.message).toContain(file);
      expect(err.message).toMatch(/not valid JSON/);
      const keptAs = String(err.details?.kept_as);
      expect(keptAs.startsWith(`${file}.corrupt-`)).toBe(true);
      expect(err.message).toContain(keptAs);
      expect(readFileSync(keptAs).equals(truncated)).toBe(true);
      expect(existsSync(file)).toBe(false);

      expect(await s.read('objectives')).toEqual({ value: undefined, etag: undefined });
      const etag = await s.write('objectives', { objectives: [] }, '""');
      expect(await s.read('objectives')).toEqual({ value: { objectives: [] }, etag });
      expect(readFileSync(keptAs).equals(truncated)).toBe(true);
    },
  );
});

describe('local store: the inter-process lock', () => {
  it('recovers a stale lock left by a dead process', async () => {
    const pid = await deadPid();
    plantLock('objectives', { pid });
    const etag = await store({ lockTimeoutMs: 10_000 }).write('objectives', { objectives: ['a'] }, '""');
    expect((await store().read('objectives')).etag).toBe(etag);
    expect(existsSync(lockFile('objectives'))).toBe(false);
  });

  it('treats a lock whose file is older than staleLockMs as stale even when its holder looks alive', async () => {
    plantLock('objectives', { pid: process.pid });
    ageLock('objectives', -5_000);
    await store({ lockTimeoutMs: 10_000, staleLockMs: 1_000 }).write('objectives', { objectives: [] }, '""');
    expect(existsSync(lockFile('objectives'))).toBe(false);
  });

  // A clone can ship `.hub/locks/`: what the lock file says is the planter's to choose; how long ago the file was
  // touched is the file system's (a live holder touches it while it holds the lock).
  it.each([
    ['dated in the future', { pid: process.pid, at: Date.now() + 10 * 365 * 86_400_000 }],
    ['with a non-numeric date', { pid: process.pid, at: 'tomorrow' as unknown as number }],
    ['naming another host', { pid: 1, host: 'build-machine-7' }],
    ['naming this host and a live pid that is no hub writer', { pid: process.ppid }],
  ])('breaks a planted lock %s once its file is older than the stale age', async (_what, holder) => {
    plantLock('objectives', holder);
    ageLock('objectives', -60_000);
    const etag = await store({ lockTimeoutMs: 5_000 }).write('objectives', { objectives: [] }, '""');
    expect((await store().read('objectives')).etag).toBe(etag);
    expect(existsSync(lockFile('objectives'))).toBe(false);
  });

  it('breaks a lock whose file is dated in the future: no live holder on this clock touched it', async () => {
    plantLock('objectives', { pid: process.pid });
    ageLock('objectives', 10 * 365 * 86_400_000);
    await store({ lockTimeoutMs: 5_000 }).write('objectives', { objectives: [] }, '""');
    expect(existsSync(lockFile('objectives'))).toBe(false);
  });

  it('a live holder keeps its lock fresh while it holds it for longer than staleLockMs: no update is lost', async () => {
    const opts = { lockTimeoutMs: 20_000, staleLockMs: 600 };
    await store(opts).write('counter', { n: 0 }, '""');
    let entered!: () => void;
    const inside = new Promise<void>((r) => {
      entered = r;
    });
    const slow = store(opts).update!('counter', async (cur: { n: number } | undefined) => {
      entered();
      await sleep(2_000);
      return { value: { n: cur!.n + 1 }, result: undefined };
    });
    await inside;
    const fast = store(opts).update!('counter', (cur: { n: number } | undefined) => ({
      value: { n: cur!.n + 1 },
      result: undefined,
    }));
    await Promise.all([slow, fast]);
    expect((await store().read<{ n: number }>('counter')).value).toEqual({ n: 2 });
  });

  it('a holder whose lock was taken from it writes nothing', async () => {
    const err = await failure(
      store().update!('objectives', () => {
        // Judged stale and broken while this holder was stuck; another writer holds it now.
        unlinkSync(lockFile('objectives'));
        plantLock('objectives', { pid: process.pid });
        return { value: { objectives: ['late'] }, result: undefined };
      }),
    );
    expect(err).toBeInstanceOf(StateConflictError);
    expect(err.details).toMatchObject({ rule: 'lock_lost' });
    expect(existsSync(join(hub, 'objectives.json'))).toBe(false);
    // The other holder's lock stays.
    expect(existsSync(lockFile('objectives'))).toBe(true);
  });

  it('waits for a live holder and times out with a conflict naming the lock file and how to clear it', async () => {
    const body = plantLock('objectives', { pid: process.pid });
    const err = await failure(store({ lockTimeoutMs: 200 }).write('objectives', { objectives: [] }, '""'));
    expect(err).toBeInstanceOf(StateConflictError);
    expect(err.code).toBe('conflict');
    expect(err.message).toContain(lockFile('objectives'));
    expect(err.message).toContain('200 ms');
    expect(err.message).toContain(`rm ${lockFile('objectives')}`);
    expect(err.details).toMatchObject({ lock: lockFile('objectives'), rule: 'lock_held' });
    // The live holder's lock was not stolen, and nothing was written.
    expect(readFileSync(lockFile('objectives'), 'utf8')).toBe(body);
    expect(existsSync(join(hub, 'objectives.json'))).toBe(false);
  });

  it('recovers an old lock file left empty by a holder that died between creating and writing it', async () => {
    mkdirSync(join(hub, 'locks'), { recursive: true });
    writeFileSync(lockFile('objectives'), '');
    ageLock('objectives', -60_000);
    await store({ lockTimeoutMs: 10_000 }).write('objectives', { objectives: [] }, '""');
    expect(existsSync(lockFile('objectives'))).toBe(false);
  });

  it('never breaks a lock its holder has created but not yet written, however long the waiter has waited', async () => {
    plantLock('objectives', { pid: process.pid });
    let done = false;
    const writing = store({ lockTimeoutMs: 20_000 })
      .write('objectives', { objectives: [] }, '""')
      .then((etag) => {
        done = true;
        return etag;
      });
    await sleep(1_200);
    // The holder changes hands: a new holder has just created its lock file and not written it yet.
    const fresh = join(hub, 'locks', 'fresh.tmp');
    writeFileSync(fresh, '');
    const ino = statSync(fresh).ino;
    renameSync(fresh, lockFile('objectives'));
    await sleep(300);
    expect(statSync(lockFile('objectives')).ino).toBe(ino);
    expect(done).toBe(false);
    // It writes its lock, then releases it.
    writeFileSync(
      lockFile('objectives'),
      JSON.stringify({ pid: process.pid, host: hostname(), token: 't', at: 0 }),
    );
    unlinkSync(lockFile('objectives'));
    const etag = await writing;
    expect((await store().read('objectives')).etag).toBe(etag);
  });

  it('proceeds once a live holder releases the lock', async () => {
    plantLock('objectives', { pid: process.pid });
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        unlinkSync(lockFile('objectives'));
        resolve();
      }, 100),
    );
    const etag = await store({ lockTimeoutMs: 10_000 }).write('objectives', { objectives: [] }, '""');
    await released;
    expect((await store().read('objectives')).etag).toBe(etag);
  });

  it('serves writers of one process in arrival order across store handles of the same folder', async () => {
    const a = store();
    const b = store();
    await a.write('objectives', { order: [] }, '""');
    let letGo!: () => void;
    const holding = new Promise<void>((r) => (letGo = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const append = (who: string) => (cur: unknown) => ({
      value: { order: [...((cur as { order?: string[] } | undefined)?.order ?? []), who] },
      result: undefined,
    });
    const first = a.update!('objectives', async (cur) => {
      entered();
      await holding;
      return append('a1')(cur);
    });
    await inside;
    // b asks while a holds the document, then a asks again: b came first, so b writes before a's second.
    const second = b.update!('objectives', async (cur) => append('b')(cur));
    await sleep(20);
    const third = a.update!('objectives', async (cur) => append('a2')(cur));
    letGo();
    await Promise.all([first, second, third]);
    expect((await store().read('objectives')).value).toEqual({ order: ['a1', 'b', 'a2'] });
  });
});
