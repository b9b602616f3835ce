// The events log's lock lingers (LockOptions.linger): released, it stays this process's until the process returns
// to its event loop, so a chain of changes takes it once. Real lock files, a real second process.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '../src/state/index.js';
import { bundleProcess } from './fixtures/bundle-process.js';

let tmp: string;
let n = 0;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'hub-linger-'));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const lockPath = () => {
  const d = join(tmp, `l${n++}`);
  mkdirSync(d, { recursive: true });
  return join(d, 'log.lock');
};
const opts = { timeoutMs: 5_000, staleMs: 10_000 };
const turn = () => new Promise<void>((r) => setImmediate(r));
let child: { bundle: string; remove(): void };
beforeAll(async () => {
  child = await bundleProcess('linger-exit.ts');
});
afterAll(() => child?.remove());

describe('a lingering lock', () => {
  it('is taken back by the next acquire of the same turn, the same file, and let go when the process turns', async () => {
    const path = lockPath();
    const first = await acquireLock(path, { ...opts, linger: true });
    const ino = lstatSync(path).ino;
    let releasedFor = 0;
    first.onRelease(() => releasedFor++);
    first.release();
    // Lingering: still on disk, still this process's.
    expect(lstatSync(path).ino).toBe(ino);
    expect(releasedFor).toBe(0);
    const second = await acquireLock(path, { ...opts, linger: true });
    expect(second).toBe(first);
    second.assertHeld();
    second.release();
    await turn();
    expect(existsSync(path)).toBe(false);
    expect(releasedFor).toBe(1);
    expect(() => second.assertHeld()).toThrow(/taken from this write/);
    // Released for good: the next acquire makes a new lock.
    const third = await acquireLock(path, { ...opts, linger: true });
    expect(third).not.toBe(first);
    third.release();
  });

  it('is let go at once when another process announced that it waits', async () => {
    const path = lockPath();
    const lock = await acquireLock(path, { ...opts, linger: true });
    let released = false;
    lock.onRelease(() => {
      released = true;
    });
    writeFileSync(`${path}.wait`, '');
    lock.release();
    expect(existsSync(path)).toBe(false);
    expect(released).toBe(true);
  });

  it('a waiter announces itself while it waits, and takes the announcement away once it holds the lock', async () => {
    const path = lockPath();
    const holder = await acquireLock(path, { ...opts, linger: true });
    const waiting = acquireLock(path, { ...opts, linger: true });
    // The waiter (of a lock that lingers: only those announce) found the lock held and said so before it slept.
    for (let i = 0; i < 50 && !existsSync(`${path}.wait`); i++) await new Promise((r) => setTimeout(r, 5));
    expect(existsSync(`${path}.wait`)).toBe(true);
    holder.release();
    const got = await waiting;
    expect(existsSync(`${path}.wait`)).toBe(false);
    got.release();
    // Nobody waits now: the lock lingers until this process turns.
    await turn();
    expect(existsSync(path)).toBe(false);
  });

  it('a waiter for a lock that does not linger writes no wait file', async () => {
    const path = lockPath();
    const holder = await acquireLock(path, opts);
    const waiting = acquireLock(path, opts);
    // Several of its tries (2, 4, 8 ms apart) go by.
    await new Promise((r) => setTimeout(r, 40));
    expect(existsSync(`${path}.wait`)).toBe(false);
    holder.release();
    (await waiting).release();
    expect(existsSync(path)).toBe(false);
  });

  it('without linger, a release removes the lock at once', async () => {
    const path = lockPath();
    const lock = await acquireLock(path, opts);
    lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it('a process that exits while its lock lingers removes it', async () => {
    const path = lockPath();
    const out = execFileSync(process.execPath, [child.bundle, 'exit', path], { encoding: 'utf8' });
    expect(out).toBe('released\n');
    expect(existsSync(path)).toBe(false);
  });

  it('is let go when its process idles, though it was released in the turn of a timer', async () => {
    const path = lockPath();
    const proc = spawn(process.execPath, [child.bundle, 'idle', path], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
    try {
      proc.stdin.write('take\n');
      expect((await lines.next()).value).toBe('released');
      // Well before the lock's next refresh (2 s), the only other thing that would wake an idle process.
      await new Promise((r) => setTimeout(r, 300));
      proc.stdin.write('check\n');
      expect((await lines.next()).value).toBe('gone');
    } finally {
      proc.stdin.end();
    }
  });
});
