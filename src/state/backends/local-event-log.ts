import {
  closeSync,
  constants,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  DOCUMENT_BOUNDS,
  findDepthViolation,
  RefusedError,
  resolveReal,
  writeFileAtomicSync,
} from '../../infra/index.js';
import {
  checkLegacyShape,
  type EventLog,
  type EventLogRead,
  type EventRetention,
  eventRecord,
  eventTime,
  type LoggedEvent,
  legacyEvents,
  MAX_EVENT_BYTES,
  pageOf,
  refuseImport,
  retentionFloor,
} from '../event-log.js';

/**
 * The local backend's events log: `.hub/coord.events.log/`, segment files of JSON lines named by the sequence of
 * their first event (`0000000000000001.jsonl`). An append runs under the log's inter-process lock: it reads the
 * tail of the newest segment for the last sequence, cuts a line a killed writer left half-written, writes one
 * line with the next sequence and syncs it (fdatasync) before it returns, so an acknowledged event survives a
 * crash. A segment that holds SEGMENT_EVENTS events (or SEGMENT_BYTES) is closed and the next event starts a new
 * one. Compaction removes whole segments older than retention, never the newest, without the lock: writers only
 * ever append to the newest segment, so it never waits for them nor they for it.
 */

export const LOG_DIR = 'coord.events.log';
export const LOG_LOCK = 'coord.events.log.lock';
export const SEGMENT_EVENTS = 1000;
export const SEGMENT_BYTES = 4 * 1024 * 1024;
/** Largest segment file read (a file planted in the log folder is not read whole). */
const MAX_SEGMENT_FILE_BYTES = SEGMENT_BYTES + 2 * MAX_EVENT_BYTES;
const SEGMENT_RE = /^(\d{16})\.jsonl$/;
const TAIL_CHUNK = 16 * 1024;

const segmentName = (first: number) => `${String(first).padStart(16, '0')}.jsonl`;
const OPEN_READ = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const OPEN_EXISTING = constants.O_RDWR | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);
const OPEN_APPEND = OPEN_EXISTING | constants.O_CREAT;
/** Events of the log's end a handle keeps in memory (an id repeated among them gets `~2`...). */
const RECENT_KEPT = 128;
/** Segments another handle may have started since this one's last append, followed one by one before a listing. */
const MAX_HOPS = 8;

/** The end of a segment: the length of its whole lines, its last events, whether its last line is no event. */
interface Tail {
  cut: number;
  recent: LoggedEvent[];
  lastBad: boolean;
}

/** The newest segment, open for appending, and its tail when it was read (or known) on the way. */
interface Opened {
  start: number;
  fd: number;
  known?: Tail;
}

/** The log's end as a handle's last append left it: the newest segment, its file's identity, size and tail. */
interface Remembered extends Tail {
  dir: string;
  start: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

export interface LocalLogPorts {
  /** The real `.hub/` folder (checked inside the workspace on every use). */
  realDir(): string;
  /** Runs `fn` holding the log's lock; `assertHeld` throws when the lock was lost (stale-broken). */
  locked<T>(fn: (assertHeld: () => void) => T | Promise<T>): Promise<T>;
  /** The legacy `coord.events` document (undefined when absent). */
  readLegacy(): unknown;
  retention: EventRetention;
  /** SEGMENT_EVENTS unless given. */
  segmentEvents?: number;
}

/** What the log read from disk, counted: an append's work must not grow with what the log retains (tests). */
export interface LogWork {
  /** Listings of the log folder, and the entries they held. */
  listings: number;
  entriesListed: number;
  /** Bytes read from segments. */
  bytesRead: number;
}

/** Parses one line of a segment: an event object with a sequence, else undefined (set aside by readers). */
function parseLine(line: string): LoggedEvent | undefined {
  try {
    const v: unknown = JSON.parse(line);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    // A line planted in a cloned workspace's log, nesting past what any reader can recurse through, is no event.
    if (findDepthViolation(v, DOCUMENT_BOUNDS.depth)) return undefined;
    const seq = (v as { seq?: unknown }).seq;
    return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? (v as LoggedEvent) : undefined;
  } catch {
    return undefined;
  }
}

function openRegular(path: string, flags: number): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, flags, 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'ENXIO')
      throw new RefusedError(`the events log segment ${path} is not a regular file; move it aside`, {
        file: path,
        rule: 'regular_file',
      });
    throw err;
  }
  const st = fstatSync(fd);
  if (!st.isFile() || st.size > MAX_SEGMENT_FILE_BYTES) {
    closeSync(fd);
    throw new RefusedError(
      `the events log segment ${path} is ${st.isFile() ? `${st.size} bytes, more than a segment holds` : 'not a regular file'}; move it aside`,
      { file: path, rule: st.isFile() ? 'segment_size' : 'regular_file' },
    );
  }
  return fd;
}

/**
 * The end of a segment open on `fd` (`size` bytes): `cut`, the length of its whole lines (a killed writer's
 * half-written line is past it), and the events of the whole lines in the last chunk read (the last one at least).
 */
function readTail(fd: number, size: number, work?: LogWork): Tail {
  if (size === 0) return { cut: 0, recent: [], lastBad: false };
  let len = Math.min(size, TAIL_CHUNK);
  for (;;) {
    const buf = Buffer.allocUnsafe(len);
    const n = readSync(fd, buf, 0, len, size - len);
    if (work) work.bytesRead += n;
    // On bytes, not text: the chunk may start inside a multi-byte character.
    const lastNl = buf.subarray(0, n).lastIndexOf(10);
    const cut = lastNl < 0 ? size - len : size - len + lastNl + 1;
    // The lines this chunk holds whole: after its first newline (unless it starts the file), up to the last.
    const from = len === size ? 0 : buf.subarray(0, Math.max(0, lastNl)).indexOf(10) + 1;
    if (lastNl >= 0 && (from > 0 || len === size)) {
      const recent: LoggedEvent[] = [];
      let lastBad = false;
      for (const line of buf.toString('utf8', from, lastNl).split('\n')) {
        const e = line === '' ? undefined : parseLine(line);
        if (e) recent.push(e);
        lastBad = e === undefined;
      }
      if (recent.length > 0 || len === size) return { cut, recent, lastBad };
    } else if (len === size) return { cut, recent: [], lastBad: false };
    // The last line is longer than the chunk (an event may take MAX_EVENT_BYTES): read more.
    len = Math.min(size, len * 4);
  }
}

function readAll(fd: number, work: LogWork): string {
  const size = fstatSync(fd).size;
  const buf = Buffer.allocUnsafe(size);
  let off = 0;
  while (off < size) {
    const n = readSync(fd, buf, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  work.bytesRead += off;
  return buf.toString('utf8', 0, off);
}

function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some filesystems refuse fsync on a directory: harmless.
  }
}

const fdatasyncAsync = promisify(fdatasync);

/** The local log: an EventLog that can also append several events in one step, synced with the caller's write. */
export interface LocalEventLog extends EventLog {
  /** What this handle read from disk so far. */
  readonly work: LogWork;
  appendMany(
    list: readonly Record<string, unknown>[],
    alsoSync?: () => Promise<void>,
  ): Promise<Array<{ seq: number; id: unknown }>>;
}

export function createLocalEventLog(ports: LocalLogPorts): LocalEventLog {
  /**
   * The log folder's real path, inside the state folder: a cloned workspace can ship `coord.events.log` as a
   * symlink out of it, and every segment would be read and written there.
   */
  const logDir = () => {
    const real = ports.realDir();
    const path = join(real, LOG_DIR);
    // Not there yet (nor, maybe, the state folder): created as a plain folder by the first append.
    if (!exists(path)) return path;
    const dir = resolveReal(real, path);
    if (!dir)
      throw new RefusedError(
        `the events log folder ${path} resolves outside the state folder ${real}; move it aside`,
        { file: path, rule: 'log_inside_state' },
      );
    return dir;
  };
  const perSegment = ports.segmentEvents ?? SEGMENT_EVENTS;
  const work: LogWork = { listings: 0, entriesListed: 0, bytesRead: 0 };

  /** First sequences of the segments, oldest first (regular files named as segments only). */
  const segments = (dir: string): number[] => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    work.listings++;
    work.entriesListed += entries.length;
    const out: number[] = [];
    for (const e of entries) {
      const m = e.isFile() ? SEGMENT_RE.exec(e.name) : null;
      const first = m ? Number(m[1]) : 0;
      // Sequences start at 1 and stay exact integers: a name past 2^53 (planted) is none of the log's.
      if (first >= 1 && Number.isSafeInteger(first)) out.push(first);
    }
    return out.sort((a, b) => a - b);
  };

  /** The last sequence of a segment (its first minus one when it holds none yet), or undefined when gone. */
  const lastOf = (dir: string, first: number): number | undefined => {
    const fd = openRegular(join(dir, segmentName(first)), OPEN_READ);
    if (fd === undefined) return undefined;
    try {
      const { recent } = readTail(fd, fstatSync(fd).size, work);
      return recent.at(-1)?.seq ?? first - 1;
    } finally {
      closeSync(fd);
    }
  };

  /** The legacy document's events, written as the log's first segment (under the lock, the log empty). */
  const migrate = (dir: string): void => {
    const legacy = ports.readLegacy();
    checkLegacyShape(legacy);
    const { events, last } = legacyEvents(legacy);
    if (events.length === 0 && last === 0) return;
    const first = events[0]?.seq ?? last + 1;
    const text = events.map((e) => `${JSON.stringify(e)}\n`).join('');
    writeFileAtomicSync(join(dir, segmentName(first)), text);
  };

  /**
   * Where this handle's last append left the log: the newest segment then, its file's identity and size after the
   * append, and its last events. While that file is unchanged (same inode, size and time: the log's files only
   * grow, and only a crash recovery shrinks one, back to what was acknowledged) and no segment follows it, the
   * next append needs neither a listing of the folder nor a read of the segment's tail: it costs the same at the
   * millionth event as at the first.
   */
  let end: Remembered | undefined;

  /**
   * The newest segment found from the one this handle remembers, open for appending, with its tail; undefined
   * when that segment is gone (compacted, the folder removed) or many were started since: then the listing.
   */
  const fromMemory = (dir: string, remembered: Remembered | undefined): Opened | undefined => {
    if (!remembered || remembered.dir !== dir) return undefined;
    let start = remembered.start;
    let known: Remembered | undefined = remembered;
    // Segments other handles started since: each is named by the sequence after the last of the one before.
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const fd = openRegular(join(dir, segmentName(start)), OPEN_EXISTING);
      if (fd === undefined) return undefined;
      const st = fstatSync(fd);
      const same = known && known.ino === st.ino && known.size === st.size && known.mtimeMs === st.mtimeMs;
      const tail = same ? known! : readTail(fd, st.size, work);
      const last = tail.recent.at(-1)?.seq ?? start - 1;
      // A last line that is no event: the append refuses it, naming this segment.
      if (tail.lastBad || last < start || !exists(join(dir, segmentName(last + 1))))
        return { start, fd, known: tail };
      closeSync(fd);
      start = last + 1;
      known = undefined;
    }
    return undefined;
  };

  /** The newest segment by the folder's listing (migrating the legacy document into an empty log), open. */
  const fromListing = (dir: string): Opened => {
    mkdirSync(dir, { recursive: true });
    let segs = segments(dir);
    if (segs.length === 0) {
      migrate(dir);
      segs = segments(dir);
    }
    const start = segs.at(-1) ?? 1;
    return { start, fd: openRegular(join(dir, segmentName(start)), OPEN_APPEND)! };
  };

  const log: LocalEventLog = {
    work,
    async append(event) {
      return (await log.appendMany([event]))[0]!;
    },

    async appendMany(list, alsoSync) {
      const out = await ports.locked(async (assertHeld) => {
        const dir = logDir();
        // The end of the log: where this handle left it when that segment is still the newest, else the folder's.
        // Forgotten until this append is on disk (a refused or failed one leaves nothing of its events behind).
        const remembered = end;
        end = undefined;
        const found = fromMemory(dir, remembered) ?? fromListing(dir);
        let { start, fd } = found;
        let path = join(dir, segmentName(start));
        let rotated = false;
        let newFile = false;
        const recorded: Array<{ seq: number; id: unknown }> = [];
        try {
          const size = fstatSync(fd).size;
          const tail = found.known ?? readTail(fd, size, work);
          // Its sequence cannot be known: numbering on from an earlier line could give one twice.
          if (tail.lastBad)
            throw new RefusedError(
              `the last line of the events log segment ${path} is not a recorded event; move the segment aside`,
              { file: path, rule: 'log_last_line' },
            );
          // A copy: a refused append leaves nothing of its events behind.
          const recent = tail.recent.slice(-RECENT_KEPT);
          let seq = recent.at(-1)?.seq ?? start - 1;
          let bytes = tail.cut;
          const lines: string[] = [];
          for (const event of list) {
            seq += 1;
            const { record, line } = eventRecord(event, seq, recent);
            recent.push(record);
            recorded.push({ seq, id: record.id });
            if (seq - start >= perSegment || bytes + line.length > SEGMENT_BYTES) {
              lines.push(`\0${seq}`);
              start = seq;
              bytes = 0;
            }
            lines.push(line);
            bytes += line.length + 1;
          }
          assertHeld();
          // A line a killed writer left half-written was never acknowledged: it goes.
          if (tail.cut < size) ftruncateSync(fd, tail.cut);
          newFile = size === 0;
          let pending = '';
          for (const l of lines) {
            if (l.startsWith('\0')) {
              // The segment is full: the rest goes to a new one, named by its first sequence.
              if (pending) writeAll(fd, pending);
              pending = '';
              fdatasyncSync(fd);
              closeSync(fd);
              path = join(dir, segmentName(Number(l.slice(1))));
              fd = openRegular(path, OPEN_APPEND | constants.O_EXCL)!;
              rotated = true;
              newFile = true;
            } else pending += `${l}\n`;
          }
          writeAll(fd, pending);
          // The event's sync and the caller's (a document written in the same step) go to the disk together.
          await Promise.all([fdatasyncAsync(fd), alsoSync?.()]);
          if (newFile) syncDir(dir);
          const after = fstatSync(fd);
          end = {
            dir,
            start,
            ino: after.ino,
            size: after.size,
            mtimeMs: after.mtimeMs,
            cut: after.size,
            recent: recent.slice(-RECENT_KEPT),
            lastBad: false,
          };
          return { recorded, rotated };
        } finally {
          closeSync(fd);
        }
      });
      // A new segment: older ones may have passed retention. Never fails the append that was made.
      if (out.rotated) await log.compact().catch(() => undefined);
      return out.recorded;
    },

    async read(o = {}): Promise<EventLogRead> {
      const after = o.after ?? 0;
      const dir = logDir();
      const segs = segments(dir);
      if (segs.length === 0) {
        const { events, last } = legacyEvents(ports.readLegacy());
        return { events: pageOf(events, after, o.limit), first_seq: events[0]?.seq ?? null, last_seq: last };
      }
      const newest = segs.at(-1)!;
      const last = lastOf(dir, newest) ?? newest - 1;
      const firstSeq = last >= segs[0]! ? segs[0]! : null;
      const events: LoggedEvent[] = [];
      if (after < last) {
        // From the segment that holds `after + 1` (or the oldest, when that one was removed).
        let from = 0;
        for (let i = 0; i < segs.length; i++) if (segs[i]! <= after + 1) from = i;
        const limit = o.limit ?? Number.POSITIVE_INFINITY;
        for (let i = from; i < segs.length && events.length < limit; i++) {
          const fd = openRegular(join(dir, segmentName(segs[i]!)), OPEN_READ);
          if (fd === undefined) continue; // removed by compaction since the listing
          let text: string;
          try {
            text = readAll(fd, work);
          } finally {
            closeSync(fd);
          }
          const end = text.lastIndexOf('\n');
          for (const line of text.slice(0, end + 1).split('\n')) {
            if (line === '') continue;
            const e = parseLine(line);
            if (!e || e.seq <= after || e.seq > last) continue;
            events.push(e);
            if (events.length >= limit) break;
          }
        }
      }
      return { events, first_seq: firstSeq, last_seq: last };
    },

    async import(list) {
      await ports.locked(() => {
        const dir = logDir();
        mkdirSync(dir, { recursive: true });
        const segs = segments(dir);
        if (segs.length > 0) refuseImport(lastOf(dir, segs.at(-1)!) ?? segs.at(-1)! - 1);
        // Segments of perSegment events each, the newest written last: a reader sees a prefix of the import.
        for (let i = 0; i < list.length; i += perSegment) {
          const chunk = list.slice(i, i + perSegment);
          const text = chunk.map((e) => `${JSON.stringify(e)}\n`).join('');
          writeFileAtomicSync(join(dir, segmentName(chunk[0]!.seq)), text);
        }
      });
    },

    async compact(now = new Date()) {
      const dir = logDir();
      const segs = segments(dir);
      if (segs.length < 2) return { removed: 0 };
      const last = lastOf(dir, segs.at(-1)!) ?? segs.at(-1)! - 1;
      const cut = now.getTime() - ports.retention.days * 86_400_000;
      // The newest event older than the cut-off: the last of the oldest segments whose last event is that old.
      let tooOld = 0;
      if (ports.retention.days > 0)
        for (let i = 0; i + 1 < segs.length; i++) {
          const fd = openRegular(join(dir, segmentName(segs[i]!)), OPEN_READ);
          if (fd === undefined) continue;
          let lastEvent: LoggedEvent | undefined;
          try {
            lastEvent = readTail(fd, fstatSync(fd).size, work).recent.at(-1);
          } finally {
            closeSync(fd);
          }
          if (!lastEvent || eventTime(lastEvent) >= cut) break;
          tooOld = lastEvent.seq;
        }
      const floor = retentionFloor(last, tooOld, ports.retention);
      let removed = 0;
      // A segment goes whole, when the next one starts at or below floor + 1; the newest never.
      for (let i = 0; i + 1 < segs.length && segs[i + 1]! - 1 <= floor; i++) {
        try {
          unlinkSync(join(dir, segmentName(segs[i]!)));
          removed += segs[i + 1]! - segs[i]!;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      return { removed };
    },
  };
  return log;
}
