import {
  closeSync,
  constants,
  fdatasyncSync,
  fstatSync,
  openSync,
  readSync,
  type Stats,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { DOCUMENT_BOUNDS, findDepthViolation, RefusedError } from '../../infra/index.js';
import { type LoggedEvent, MAX_EVENT_BYTES } from '../event-log.js';

// The file work of the local events log (local-event-log.ts): segment files opened only when regular and within a
// segment's size, their tail read from the end, whole lines written, and syncs.

/** A segment's file name: the sequence of its first event, 16 digits. */
export const segmentName = (first: number) => `${String(first).padStart(16, '0')}.jsonl`;

/** Events a segment holds before the next event starts a new one (or SEGMENT_BYTES). */
export const SEGMENT_EVENTS = 1000;
export const SEGMENT_BYTES = 4 * 1024 * 1024;

/** Largest segment file read (a file planted in the log folder is not read whole). */
const MAX_SEGMENT_FILE_BYTES = SEGMENT_BYTES + 2 * MAX_EVENT_BYTES;
export const SEGMENT_RE = /^(\d{16})\.jsonl$/;
const TAIL_CHUNK = 16 * 1024;

export const OPEN_READ = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
export const OPEN_EXISTING = constants.O_RDWR | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);
export const OPEN_APPEND = OPEN_EXISTING | constants.O_CREAT;
/** The end of a segment: the length of its whole lines, its last events, whether its last line is no event. */
export interface Tail {
  cut: number;
  recent: LoggedEvent[];
  lastBad: boolean;
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
export function parseLine(line: string): LoggedEvent | undefined {
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

export function openRegular(path: string, flags: number): number | undefined {
  return openRegularStat(path, flags)?.fd;
}

/** openRegular, with the file's stat as it was checked. */
export function openRegularStat(path: string, flags: number): { fd: number; st: Stats } | undefined {
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
  return { fd, st };
}

/**
 * The end of a segment open on `fd` (`size` bytes): `cut`, the length of its whole lines (a killed writer's
 * half-written line is past it), and the events of the whole lines in the last chunk read (the last one at least).
 */
export function readTail(fd: number, size: number, work?: LogWork): Tail {
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

/** The bytes of a file open on `fd`, from its start: at most `max` (its size when none is given). */
export function readBytes(fd: number, max = Number.POSITIVE_INFINITY): Buffer {
  const size = Math.min(fstatSync(fd).size, max);
  const buf = Buffer.allocUnsafe(size);
  let off = 0;
  while (off < size) {
    const n = readSync(fd, buf, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  return buf.subarray(0, off);
}

export function readAll(fd: number, work: LogWork): string {
  const bytes = readBytes(fd);
  work.bytesRead += bytes.length;
  return bytes.toString('utf8');
}

export function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

/** The newest segment while an append writes it (a full one is closed, and the next opened, on the way). */
export interface Seg {
  dir: string;
  start: number;
  fd: number;
  /** Its length so far (as counted for SEGMENT_BYTES). */
  bytes: number;
  rotated: boolean;
  newFile: boolean;
}

/** Writes whole lines at the end of the newest segment, starting a new one where a segment is full. */
export function putLines(
  seg: Seg,
  entries: ReadonlyArray<{ seq: number; line: string }>,
  perSegment: number,
): void {
  let text = '';
  for (const { seq, line } of entries) {
    if (seq - seg.start >= perSegment || seg.bytes + line.length > SEGMENT_BYTES) {
      // The segment is full: the rest goes to a new one, named by its first sequence.
      if (text) writeAll(seg.fd, text);
      text = '';
      fdatasyncSync(seg.fd);
      closeSync(seg.fd);
      seg.start = seq;
      seg.fd = openRegular(join(seg.dir, segmentName(seq)), OPEN_APPEND | constants.O_EXCL)!;
      seg.bytes = 0;
      seg.rotated = true;
      seg.newFile = true;
    }
    text += `${line}\n`;
    seg.bytes += line.length + 1;
  }
  if (text) writeAll(seg.fd, text);
}
