import {
  closeSync,
  constants,
  fstatSync,
  futimesSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { RefusedError, randomHex, StateConflictError } from '../infra/index.js';

export interface LockOptions {
  /** Give up after this long (ms). */
  timeoutMs: number;
  /**
   * A lock whose file nobody touched for this long is stale (ms). Its holder touches it several times within this
   * (see refreshEvery), so only a holder that is gone or stuck lets it age.
   */
  staleMs: number;
  /**
   * Keep the lock past its release until this process next returns to its event loop, for this process's next
   * acquire of the same file, unless another process announced that it waits (see lingerLock). Off by default.
   */
  linger?: boolean;
}

/** A lock this process holds. */
export interface HeldLock {
  /** Throws StateConflictError when the lock is no longer this holder's (it was judged stale and broken). */
  assertHeld(): void;
  /**
   * Stops refreshing and removes the lock file if it is still this holder's (with `linger`, maybe a little later:
   * LockOptions.linger).
   */
  release(): void;
  /** Runs `fn` once the lock is released for good (not while it lingers); at once when it already was. */
  onRelease(fn: () => void): void;
}

interface LockInfo {
  pid: number;
  host: string;
  token: string;
  at: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  // 0 and negatives name process groups, not a process: such content says nothing of its holder.
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseInfo(text: string): Partial<LockInfo> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Partial<LockInfo>) : undefined;
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
function breakStale(path: string, seen: { text: string; ino: number; mtimeMs: number }): void {
  const aside = `${path}.${randomHex(4)}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  let same = false;
  try {
    // The same file, not touched since it was judged: a holder that refreshed it meanwhile is alive.
    const st = statSync(aside);
    same = st.ino === seen.ino && st.mtimeMs === seen.mtimeMs && readFileSync(aside, 'utf8') === seen.text;
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

/** How often a holder touches its lock file: several times within the stale age, at most every 2 s. */
export function refreshEvery(staleMs: number): number {
  return Math.max(20, Math.min(2_000, Math.floor(staleMs / 5)));
}

/**
 * Why a lock file is stale, or undefined while it may have a live holder. Judged from what a holder cannot fake:
 * the file's modification time as the file system reports it, which a live holder refreshes (refreshEvery). Its
 * content is a planter's to choose (a cloned workspace can ship `.hub/locks/`), so it can only make a lock stale
 * sooner, never hold it: a holder on this host whose pid is gone, a lock never written. A time in the future cannot come from a live
 * holder on this clock, so such a lock cannot be judged, and a lock that cannot be judged is stale.
 */
function staleness(
  seen: { text: string; mtimeMs: number },
  staleMs: number,
  host: string,
): string | undefined {
  const age = Date.now() - seen.mtimeMs;
  if (!Number.isFinite(age) || age < -staleMs) return 'its file is dated in the future';
  if (age > staleMs) return `its file was last touched ${Math.round(age / 1000)} s ago`;
  const info = parseInfo(seen.text);
  // A holder writes its lock in the same step as it creates it: one still unwritten after a second lost its holder
  // between the two (a crash), whoever waits.
  if (!info && age > UNWRITTEN_LOCK_GRACE_MS) return 'it was never written';
  if (info?.host === host && typeof info.pid === 'number' && !alive(info.pid))
    return `its holder (pid ${info.pid} on this host) is gone`;
  return undefined;
}

let host: string | undefined;
let processToken: string | undefined;
let tokens = 0;
/** A token no other lock of any process takes: random once per process, then counted (randomness costs). */
const nextToken = () => {
  processToken ??= randomHex(6);
  tokens += 1;
  return `${processToken}.${tokens}`;
};
/** This machine's name, asked once (a lock is taken on every write). */
const thisHost = () => {
  host ??= hostname();
  return host;
};

/** How long a lock may stay unwritten (its holder creates and writes it in one synchronous step). */
const UNWRITTEN_LOCK_GRACE_MS = 1_000;

/** The holder a lock file names, as shown in an error: only short plain values of its (untrusted) content. */
function holderOf(text: string): { pid?: number; host?: string } {
  const info = parseInfo(text);
  const pid = typeof info?.pid === 'number' && Number.isSafeInteger(info.pid) ? info.pid : undefined;
  const host =
    typeof info?.host === 'string' && /^[\w.-]{1,255}$/.test(info.host) ? (info.host as string) : undefined;
  return { ...(pid === undefined ? {} : { pid }), ...(host === undefined ? {} : { host }) };
}

function lockHeldError(
  path: string,
  opts: LockOptions,
  seen: { text: string } | undefined,
): StateConflictError {
  const holder = seen ? holderOf(seen.text) : {};
  const says =
    holder.pid === undefined
      ? ''
      : ` (it names pid ${holder.pid}${holder.host === undefined ? '' : ` on ${holder.host}`})`;
  return new StateConflictError(
    `another writer held the lock ${path} for the ${opts.timeoutMs} ms this write waited${says}; nothing was written. ` +
      `Try again; a lock whose holder stops refreshing it is broken after ${Math.round(opts.staleMs / 1000)} s. ` +
      `If no hub process is writing this workspace's state, remove it: rm ${path}`,
    { lock: path, rule: 'lock_held', waited_ms: opts.timeoutMs, stale_after_ms: opts.staleMs, holder },
  );
}

/**
 * Locks this process keeps past their release (LockOptions.linger), by file: the next acquire of the file here
 * takes the lock back without touching the disk.
 */
const lingering = new Map<string, Held>();
let exitHooked = false;

/** Where a process waiting for a lock says so: a holder that sees it does not keep the lock past its release. */
export const waitFileOf = (path: string) => `${path}.wait`;

// Never followed, never blocking (a FIFO planted in its place is opened, not waited on), made when absent.
const OPEN_WAIT =
  constants.O_RDONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Says that this process waits for the lock at `path` (best effort: a holder that misses it keeps it a turn). */
function announceWait(path: string): void {
  try {
    closeSync(openSync(waitFileOf(path), OPEN_WAIT, 0o644));
  } catch {
    // the holder keeps the lock until its process returns to its event loop, as it would anyway
  }
}

/** Whether a waiter announced itself (a wait file that cannot be looked at counts as one: no lingering). */
function someoneWaits(path: string): boolean {
  try {
    return lstatSync(waitFileOf(path), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

/**
 * An exclusive inter-process lock file (O_EXCL create). The holder keeps the file open and touches it every
 * refreshEvery(staleMs) while it holds the lock; a waiter breaks a lock that is stale (see staleness) and, after
 * `timeoutMs`, gives up with a conflict naming the lock file and how to clear it. A waiter for a lock that lingers
 * announces itself in waitFileOf(path), so that its holder lets it go at once.
 */
export async function acquireLock(path: string, opts: LockOptions): Promise<HeldLock> {
  const kept = lingering.get(path);
  if (kept?.resume()) return kept;
  const me: LockInfo = {
    pid: process.pid,
    host: thisHost(),
    token: nextToken(),
    at: Date.now(),
  };
  const body = JSON.stringify(me);
  const deadline = Date.now() + opts.timeoutMs;
  let wait = 2;
  let madeFolder = false;
  let announced = false;
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(path, 'wx', 0o644);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Its folder removed since the caller made it (callers make it once): made again.
      if (code === 'ENOENT' && !madeFolder) {
        mkdirSync(dirname(path), { recursive: true });
        madeFolder = true;
        continue;
      }
      if (code !== 'EEXIST') throw err;
    }
    if (fd !== undefined) {
      const held = new Held(path, fd, body, opts);
      if (announced) {
        // Other waiters announce themselves again on their next try.
        try {
          unlinkSync(waitFileOf(path));
        } catch {
          // gone, or never made
        }
      }
      return held;
    }
    const seen = snapshot(path);
    if (!seen) continue;
    if (staleness(seen, opts.staleMs, me.host) !== undefined) {
      breakStale(path, seen);
      continue;
    }
    if (Date.now() > deadline) throw lockHeldError(path, opts, seen);
    // Only a lock that lingers looks for it (the same file is always taken with the same options).
    if (opts.linger) {
      announceWait(path);
      announced = true;
    }
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 50);
  }
}

/** The lock just created on `fd`: written, refreshed while held, removed on release only if still ours. */
class Held implements HeldLock {
  private readonly ino: number;
  private readonly refresh: NodeJS.Timeout;
  private state: 'held' | 'lingering' | 'released' = 'held';
  private readonly released: Array<() => void> = [];

  constructor(
    private readonly path: string,
    private readonly fd: number,
    body: string,
    private readonly opts: LockOptions,
  ) {
    try {
      writeSync(fd, body);
      this.ino = fstatSync(fd).ino;
    } catch (err) {
      closeSync(fd);
      try {
        unlinkSync(path);
      } catch {
        // gone
      }
      throw err;
    }
    this.refresh = setInterval(() => {
      try {
        const t = new Date();
        futimesSync(fd, t, t);
      } catch {
        // closed meanwhile; assertHeld tells the holder
      }
    }, refreshEvery(opts.staleMs));
    this.refresh.unref();
  }

  private ours(): boolean {
    try {
      return lstatSync(this.path).ino === this.ino;
    } catch {
      return false;
    }
  }

  assertHeld(): void {
    if (this.state === 'held' && this.ours()) return;
    throw new StateConflictError(
      `the lock ${this.path} was taken from this write as stale (its holder did not refresh it for ${Math.round(this.opts.staleMs / 1000)} s); nothing was written; try again`,
      { lock: this.path, rule: 'lock_lost' },
    );
  }

  release(): void {
    if (this.state !== 'held') return;
    // Kept for this process's next acquire until it returns to its event loop (a chain of writes, or writers of
    // this process queued behind this one, take it in turn without the disk), unless another process waits.
    if (!this.opts.linger || lingering.has(this.path) || someoneWaits(this.path)) {
      this.letGo();
      return;
    }
    this.state = 'lingering';
    lingering.set(this.path, this);
    // Not unref'd: an unref'd immediate does not keep the loop from blocking in its poll phase (until the next
    // timer or I/O), and the lock would stay while this process idles. One that fires after the lock was taken
    // back (and is held again) leaves it be.
    setImmediate(() => {
      if (this.state === 'lingering') this.letGo();
    });
    if (!exitHooked) {
      exitHooked = true;
      // A process that exits while a lock lingers removes it (one killed leaves it to the stale rules).
      process.once('exit', () => {
        for (const held of [...lingering.values()]) held.letGo();
      });
    }
  }

  /** Takes a lingering lock back for this process's next acquire: false when it is gone (then it is let go). */
  resume(): boolean {
    if (this.state !== 'lingering') return false;
    lingering.delete(this.path);
    if (this.ours()) {
      this.state = 'held';
      return true;
    }
    this.letGo();
    return false;
  }

  onRelease(fn: () => void): void {
    if (this.state === 'released') fn();
    else this.released.push(fn);
  }

  /** Releases the lock for good: its file removed only if still ours (the open descriptor keeps its inode). */
  private letGo(): void {
    if (this.state === 'released') return;
    this.state = 'released';
    if (lingering.get(this.path) === this) lingering.delete(this.path);
    clearInterval(this.refresh);
    if (this.ours()) {
      try {
        unlinkSync(this.path);
      } catch {
        // already gone
      }
    }
    closeSync(this.fd);
    for (const fn of this.released.splice(0)) {
      try {
        fn();
      } catch {
        // a callback's failure is its own
      }
    }
  }
}
