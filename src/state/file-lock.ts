import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { HubError, RefusedError, randomHex } from '../infra/index.js';

export interface LockOptions {
  /** Give up after this long (ms). */
  timeoutMs: number;
  /** A lock older than this is stale even if its holder looks alive (ms). */
  staleMs: number;
}

interface LockInfo {
  pid: number;
  host: string;
  token: string;
  at: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock created but not written yet (its holder died between create and write) is stale after this. */
const UNWRITTEN_LOCK_GRACE_MS = 1_000;

function parseInfo(text: string): LockInfo | undefined {
  try {
    return JSON.parse(text) as LockInfo;
  } catch {
    return undefined;
  }
}

function readInfo(path: string): LockInfo | undefined {
  try {
    const seen = snapshot(path);
    return seen ? parseInfo(seen.text) : undefined;
  } catch {
    return undefined;
  }
}

/** A lock file holds one line of JSON; anything longer is not a lock of hub's. */
const MAX_LOCK_BYTES = 4096;
// Non-blocking and not through a symlink: a FIFO or a link planted where the lock goes (a cloned workspace can
// ship one) must be refused at once, never waited on or followed.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * The lock file as one consistent snapshot (content and identity of the same file), or undefined if gone.
 * Throws when something other than a regular file sits where the lock goes: no holder would ever remove it.
 */
function snapshot(path: string): { text: string; ino: number; mtimeMs: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'ENXIO')
      throw notALock(path, code === 'ELOOP' ? 'a symbolic link' : 'a socket');
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notALock(path, st.isFIFO() ? 'a FIFO' : 'not a regular file');
    const buf = Buffer.alloc(MAX_LOCK_BYTES);
    const n = readSync(fd, buf, 0, MAX_LOCK_BYTES, 0);
    return { text: buf.toString('utf8', 0, n), ino: st.ino, mtimeMs: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

function notALock(path: string, what: string): RefusedError {
  return new RefusedError(`the lock file ${path} is ${what}, not a lock hub wrote; remove it`, {
    lock: path,
    rule: 'lock_regular_file',
  });
}

/**
 * Breaks a stale lock without stealing a fresh one: the lock is renamed aside, and put back (by a link that
 * fails if a new lock appeared) when what was renamed is not the stale lock that was seen.
 */
function breakStale(path: string, seen: { text: string; ino: number }): void {
  const aside = `${path}.${randomHex(4)}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  let same = false;
  try {
    same = statSync(aside).ino === seen.ino && readFileSync(aside, 'utf8') === seen.text;
  } catch {
    // vanished
  }
  if (!same) {
    try {
      linkSync(aside, path);
    } catch {
      // a newer lock took the place; ours was already released
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // gone
  }
}

/** An exclusive inter-process lock file (O_EXCL create) with stale-lock recovery for dead holders. */
export async function acquireLock(path: string, opts: LockOptions): Promise<() => void> {
  const me: LockInfo = {
    pid: process.pid,
    host: hostname(),
    token: randomHex(8),
    at: Date.now(),
  };
  const body = JSON.stringify(me);
  const deadline = Date.now() + opts.timeoutMs;
  let wait = 2;
  for (;;) {
    try {
      const fd = openSync(path, 'wx', 0o644);
      try {
        writeSync(fd, body);
      } finally {
        closeSync(fd);
      }
      return () => {
        // Only remove the lock if it is still ours.
        if (readInfo(path)?.token === me.token) {
          try {
            unlinkSync(path);
          } catch {
            // already gone
          }
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const seen = snapshot(path);
    if (!seen) continue;
    const info = parseInfo(seen.text);
    // An unreadable lock may be one being written right now: it is stale only once the file itself is old
    // (how long this caller has waited says nothing about it).
    const stale = info
      ? (info.host === me.host && !alive(info.pid)) || Date.now() - info.at > opts.staleMs
      : Date.now() - seen.mtimeMs > UNWRITTEN_LOCK_GRACE_MS;
    if (stale) {
      breakStale(path, seen);
      continue;
    }
    if (Date.now() > deadline) {
      throw new HubError(
        'internal',
        `could not lock ${path} within ${opts.timeoutMs} ms (held by pid ${info?.pid ?? '?'} on ${info?.host ?? '?'})`,
        {
          lock: path,
          holder: info,
        },
      );
    }
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 50);
  }
}
