import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { fsyncDir, RefusedError, resolveReal, writeFileAtomicSync } from '../../infra/index.js';
import {
  checkLegacyShape,
  type EventLog,
  type EventLogRead,
  type EventRetention,
  eventRecord,
  eventTime,
  type LoggedEvent,
  legacyEvents,
  pageOf,
  refuseImport,
  retentionFloor,
} from '../event-log.js';
import {
  type LogWork,
  OPEN_APPEND,
  OPEN_EXISTING,
  OPEN_READ,
  openRegular,
  openRegularStat,
  parseLine,
  putLines,
  readAll,
  readTail,
  SEGMENT_EVENTS,
  SEGMENT_RE,
  type Seg,
  segmentName,
  type Tail,
} from './local-log-files.js';
import { bootId, type MarkerFile, openMarker, readRegistry, register } from './local-log-marker.js';
import { dropOpenEnd, keepOpenEnd, type LogLock, takeOpenEnd } from './local-log-open-end.js';
import { type Boxed, MAX_OUTBOX, recoverSegment, SYNC_EVERY } from './local-outbox.js';

export type { LogWork } from './local-log-files.js';
export type { LogLock } from './local-log-open-end.js';

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
/** Events of the log's end a handle keeps in memory (an id repeated among them gets `~2`...). */
const RECENT_KEPT = 128;
/** Segments another handle may have started since this one's last append, followed one by one before a listing. */
const MAX_HOPS = 8;

/** The newest segment, open for appending, and its tail when it was read (or known) on the way. */
interface Opened {
  start: number;
  fd: number;
  known?: Tail;
  /** Its size when it was opened, when known. */
  size?: number;
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
  /**
   * Runs `fn` holding the log's lock: `lock.assertHeld` throws when it was lost (stale-broken), `lock.onRelease`
   * runs once it is released for good. The same `lock` comes back while this process kept it between two calls
   * (nobody else wrote the log meanwhile). `real` is the real state folder (checked).
   */
  locked<T>(fn: (lock: LogLock, real: string) => T | Promise<T>): Promise<T>;
  /** The legacy `coord.events` document (undefined when absent). */
  readLegacy(): unknown;
  /** The outbox of a document as it is on disk (none when absent or unreadable), read without its lock. */
  readOutbox(doc: string): Boxed[];
  retention: EventRetention;
  /** SEGMENT_EVENTS unless given. */
  segmentEvents?: number;
}

/** The local log: an EventLog that can also append several events in one step, synced with the caller's write. */
export interface LocalEventLog extends EventLog {
  /** What this handle read from disk so far. */
  readonly work: LogWork;
  /** Whether a change can carry its events in its document (outbox); where not, its append is synced. */
  readonly outboxes: boolean;
  appendMany(
    list: readonly Record<string, unknown>[],
    opts?: { alsoSync?: () => void; outbox?: OutboxChange },
  ): Promise<Array<{ seq: number; id: unknown }>>;
}

/** A change of a document whose events travel in it (local-outbox.ts). */
export interface OutboxChange {
  /** The document the change writes. */
  doc: string;
  /** Its outbox as it was read (events of its earlier changes). */
  prior: readonly Boxed[];
  /** Writes the document durably, carrying `outbox` (its events the log may not hold durably yet). */
  write(outbox: Boxed[]): void;
}

export function createLocalEventLog(ports: LocalLogPorts): LocalEventLog {
  /**
   * The log folder's real path, inside the state folder: a cloned workspace can ship `coord.events.log` as a
   * symlink out of it, and every segment would be read and written there.
   */
  const logDir = (real = ports.realDir()) => {
    const path = join(real, LOG_DIR);
    const st = lstatSync(path, { throwIfNoEntry: false });
    // Not there yet (nor, maybe, the state folder): created as a plain folder by the first append. A folder (not
    // a link) in the real state folder is inside it.
    if (st === undefined || st.isDirectory()) return path;
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
      const opened = openRegularStat(join(dir, segmentName(start)), OPEN_EXISTING);
      if (opened === undefined) return undefined;
      const { fd, st } = opened;
      const same = known && known.ino === st.ino && known.size === st.size && known.mtimeMs === st.mtimeMs;
      const tail = same ? known! : readTail(fd, st.size, work);
      const last = tail.recent.at(-1)?.seq ?? start - 1;
      // A last line that is no event: the append refuses it, naming this segment.
      if (tail.lastBad || last < start || !exists(join(dir, segmentName(last + 1))))
        return { start, fd, known: tail, size: st.size };
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

  /** Documents that ever carried an outbox, as this handle last read them (register re-reads on a miss). */
  let known: { dir: string; names: Set<string> } | undefined;
  const registry = (dir: string) => {
    if (known?.dir !== dir) known = { dir, names: readRegistry(dir) };
    return known.names;
  };

  const log: LocalEventLog = {
    work,
    outboxes: bootId() !== undefined,
    async append(event) {
      return (await log.appendMany([event]))[0]!;
    },

    async appendMany(list, opts = {}) {
      const out = await ports.locked(async (lock, real) => {
        // The log's open end, exact when this process kept the lock since the append that left it (nobody else
        // wrote the log meanwhile): then nothing is listed, opened nor read.
        const kept = takeOpenEnd(real, lock);
        const dir = kept?.dir ?? logDir(real);
        // The end of the log: where this handle left it when that segment is still the newest, else the folder's.
        // Forgotten until this append is on disk (a refused or failed one leaves nothing of its events behind).
        const remembered = end;
        end = undefined;
        const found: Opened = kept
          ? { start: kept.start, fd: kept.fd, known: kept.tail, size: kept.size }
          : (fromMemory(dir, remembered) ?? fromListing(dir));
        const seg: Seg = {
          dir,
          start: found.start,
          fd: found.fd,
          bytes: 0,
          rotated: false,
          newFile: false,
        };
        const recorded: Array<{ seq: number; id: unknown }> = [];
        const boot = bootId();
        let markerFile: MarkerFile | undefined = kept?.markerFile;
        let done = false;
        try {
          if (!kept) markerFile = boot === undefined ? undefined : openMarker(dir);
          let marker = kept ? kept.marker : markerFile?.read();
          let size = found.size ?? fstatSync(seg.fd).size;
          let tail = found.known ?? readTail(seg.fd, size, work);
          const lastSeen = tail.recent.at(-1)?.seq ?? seg.start - 1;
          // The marker names the latest change written through its document: its lines should be in the log.
          const unfinished = marker?.pending && lastSeen < marker.pending.to;
          if (boot !== undefined && (marker?.boot !== boot || unfinished)) {
            // A crash undid part of an earlier step (see local-outbox.ts): put back first, synced, on its own.
            lock.assertHeld();
            tail = recoverSegment(seg, size, marker?.boot === boot ? marker.pending!.doc : undefined, {
              readOutbox: ports.readOutbox,
              perSegment,
              keep: RECENT_KEPT,
              work,
            });
            if (!tail.lastBad) {
              size = fstatSync(seg.fd).size;
              marker = { boot, synced: tail.recent.at(-1)?.seq ?? seg.start - 1, pending: null };
              markerFile!.write(marker);
            }
          }
          // Its sequence cannot be known: numbering on from an earlier line could give one twice.
          if (tail.lastBad)
            throw new RefusedError(
              `the last line of the events log segment ${join(dir, segmentName(seg.start))} is not a recorded event; move the segment aside`,
              { file: join(dir, segmentName(seg.start)), rule: 'log_last_line' },
            );
          // A copy: a refused append leaves nothing of its events behind.
          const recent = tail.recent.slice(-RECENT_KEPT);
          const lastBefore = recent.at(-1)?.seq ?? seg.start - 1;
          let seq = lastBefore;
          const entries: Array<{ seq: number; line: string }> = [];
          for (const event of list) {
            seq += 1;
            const { record, line } = eventRecord(event, seq, recent);
            recent.push(record);
            recorded.push({ seq, id: record.id });
            entries.push({ seq, line });
          }
          lock.assertHeld();
          // A line a killed writer left half-written was never acknowledged: it goes.
          if (tail.cut < size) ftruncateSync(seg.fd, tail.cut);
          seg.bytes = tail.cut;
          seg.newFile = tail.cut === 0;
          // The synced sequence as the marker has it (never above what the log holds).
          let synced = Math.min(marker?.synced ?? 0, lastBefore);
          const change = opts.outbox;
          // Through its document: the change's events go inside the document's own durable write (with those of
          // its earlier changes the log may not hold durably yet), and the marker names the change while it is in
          // flight. A document that cannot carry them (the registry full, more events than an outbox is read back
          // with) is written first, its events synced here.
          const carried = change?.prior.filter((e) => e.seq > synced && e.seq <= lastBefore) ?? [];
          const outboxed =
            change !== undefined &&
            marker !== undefined &&
            carried.length + entries.length <= MAX_OUTBOX &&
            register(dir, registry(dir), change.doc);
          if (change) {
            if (outboxed) {
              marker = { ...marker!, pending: { doc: change.doc, from: lastBefore + 1, to: seq } };
              markerFile!.write(marker);
              change.write([...carried, ...entries]);
            } else change.write(carried);
          }
          putLines(seg, entries, perSegment);
          // Synced now unless the events are in their document's outbox and few are unsynced since the last sync.
          // The marker keeps naming the change (the next append sees its lines are there); a sync is recorded.
          if (!outboxed || seq - synced >= SYNC_EVERY || seg.rotated) {
            fdatasyncSync(seg.fd);
            synced = seq;
            if (marker) {
              marker = { boot: marker.boot, synced, pending: null };
              markerFile!.write(marker);
            }
          }
          // The folder of a document written before this append (its rename), after the log's sync: on a
          // journaled file system that sync already committed it, and this one costs little.
          opts.alsoSync?.();
          if (seg.newFile) fsyncDir(dir);
          const after = fstatSync(seg.fd);
          const left: Tail = { cut: after.size, recent: recent.slice(-RECENT_KEPT), lastBad: false };
          end = { dir, start: seg.start, ino: after.ino, size: after.size, mtimeMs: after.mtimeMs, ...left };
          keepOpenEnd(real, lock, {
            dir,
            start: seg.start,
            fd: seg.fd,
            size: after.size,
            tail: left,
            markerFile,
            marker,
          });
          done = true;
          return { recorded, rotated: seg.rotated };
        } finally {
          if (!done) {
            closeSync(seg.fd);
            markerFile?.close();
          }
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
      await ports.locked((lock, real) => {
        dropOpenEnd(real, lock);
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
