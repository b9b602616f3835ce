import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../infra/index.js';
import { type LoggedEvent, MAX_EVENT_BYTES } from '../event-log.js';
import { DOCUMENT_NAME_RE } from '../remote-routes.js';
import { OUTBOX_KEY } from '../store.js';
import { parseLine } from './local-log-files.js';

// The outbox of the local events log. A change of a document that records events writes them inside the
// document's own atomic write (one durable write, as the document alone costs) under the reserved key OUTBOX_KEY;
// their lines are then appended to the log without a sync of their own, and the log is synced every SYNC_EVERY
// events. What a crash can undo is found again by the next append, under the log's lock:
// - a writer killed between its document and its line leaves `pending` in the marker file: that document's
//   outbox gives the events back, with the sequences they took;
// - a machine crash can take the log's unsynced tail: the marker names the boot it was written in, and an append
//   in another boot cuts the newest segment to its whole events and takes back from the outbox of every
//   document that ever carried one (the registry) what numbers on from there.
// A document keeps in its outbox only its events the log may not hold durably yet (above `synced`).

/** Events appended through outboxes before the log is synced (bounds an outbox, and what a crash can take back). */
export const SYNC_EVERY = 16;
/** The marker file in the log folder: the boot it was written in, the synced sequence, a change in flight. */
export const MARKER_FILE = 'recovery.json';
/** The registry of documents that ever carried an outbox (written durably before the first one does). */
export const REGISTRY_FILE = 'outboxes.json';
/** Most documents the registry names; past it a change is recorded with a synced append, as without an outbox. */
export const MAX_REGISTRY = 4096;
/** Most events an outbox read back may hold (SYNC_EVERY of its own, with room for one large change). */
const MAX_OUTBOX = 4 * SYNC_EVERY;
const MAX_SMALL_FILE = 512 * 1024;

const OPEN_SMALL =
  constants.O_RDWR | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export interface Marker {
  boot: string;
  synced: number;
  pending: { doc: string; from: number; to: number } | null;
}

let bootIdCache: string | null | undefined;
/** This machine's boot (Linux); undefined where it cannot be told, and then changes sync their own lines. */
export function bootId(): string | undefined {
  if (bootIdCache === undefined) {
    try {
      const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      bootIdCache = /^[0-9a-f-]{8,64}$/i.test(id) ? id : null;
    } catch {
      bootIdCache = null;
    }
  }
  return bootIdCache ?? undefined;
}

const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Opens a small file of the log folder: regular only, never followed. Absent, or planted as a link, a FIFO or a
 * device, it reads as absent (an unreadable marker is a marker of another boot); to be written (`create`), a
 * planted one is replaced by a file of hub's own (a folder in its place stays, and the file is not written).
 */
function openSmall(path: string, create: boolean): number | undefined {
  for (let attempt = 0; ; attempt++) {
    let fd: number | undefined;
    try {
      fd = openSync(path, create ? OPEN_SMALL : OPEN_SMALL & ~constants.O_CREAT, 0o644);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR') return undefined;
      if (code !== 'ELOOP' && code !== 'ENXIO') throw err;
    }
    if (fd !== undefined && fstatSync(fd).isFile()) return fd;
    if (fd !== undefined) closeSync(fd);
    if (!create || attempt > 0) return undefined;
    try {
      unlinkSync(path);
    } catch {
      return undefined;
    }
  }
}

function readSmall(path: string): string | undefined {
  const fd = openSmall(path, false);
  if (fd === undefined) return undefined;
  try {
    const size = Math.min(fstatSync(fd).size, MAX_SMALL_FILE);
    const buf = Buffer.allocUnsafe(size);
    let off = 0;
    while (off < size) {
      const n = readSync(fd, buf, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    return buf.toString('utf8', 0, off);
  } finally {
    closeSync(fd);
  }
}

/** The marker file's length: written whole at its start, padded, so a shorter marker never leaves a longer tail. */
const MARKER_BYTES = 512;

/** The marker file of an append, open for reading and writing (never followed: a planted link is not written). */
export interface MarkerFile {
  /** The marker, or undefined when absent or not one (both mean: recover before numbering on). */
  read(): Marker | undefined;
  /**
   * Writes the marker in place, without a sync: it must survive a killed process (the page cache does), not a
   * machine crash (a marker of an earlier boot means recover, whatever it says).
   */
  write(m: Marker): void;
  close(): void;
}

export function openMarker(dir: string): MarkerFile {
  const fd = openSmall(join(dir, MARKER_FILE), true);
  return {
    read() {
      if (fd === undefined) return undefined;
      const buf = Buffer.allocUnsafe(MARKER_BYTES * 2);
      const n = readSync(fd, buf, 0, buf.length, 0);
      return parseMarker(buf.toString('utf8', 0, n));
    },
    write(m) {
      if (fd === undefined) return;
      const json = JSON.stringify(m);
      const buf = Buffer.from(json.length < MARKER_BYTES ? json.padEnd(MARKER_BYTES) : json, 'utf8');
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off, off);
      if (buf.length > MARKER_BYTES) ftruncateSync(fd, buf.length);
    },
    close() {
      if (fd !== undefined) closeSync(fd);
    },
  };
}

export function parseMarker(text: string): Marker | undefined {
  try {
    const v = JSON.parse(text) as Partial<Marker> | null;
    if (typeof v?.boot !== 'string' || !isSeq(v.synced)) return undefined;
    const p = v.pending;
    if (p === null) return { boot: v.boot, synced: v.synced, pending: null };
    if (
      typeof p?.doc === 'string' &&
      DOCUMENT_NAME_RE.test(p.doc) &&
      isSeq(p.from) &&
      isSeq(p.to) &&
      p.from <= p.to
    )
      return { boot: v.boot, synced: v.synced, pending: { doc: p.doc, from: p.from, to: p.to } };
    return undefined;
  } catch {
    return undefined;
  }
}

/** The documents the registry names (valid names only, at most MAX_REGISTRY). */
export function readRegistry(dir: string): Set<string> {
  const text = readSmall(join(dir, REGISTRY_FILE));
  const out = new Set<string>();
  if (text === undefined) return out;
  try {
    const v: unknown = JSON.parse(text);
    if (Array.isArray(v))
      for (const name of v)
        if (typeof name === 'string' && DOCUMENT_NAME_RE.test(name) && out.size < MAX_REGISTRY) out.add(name);
  } catch {
    // not a registry: none named (a crash never leaves it torn: it is replaced atomically)
  }
  return out;
}

/** Adds `doc` to the registry, durably, before the document first carries an outbox. False when it is full. */
export function register(dir: string, known: Set<string>, doc: string): boolean {
  if (known.has(doc)) return true;
  // Other writers may have added theirs since this handle read it (the caller holds the log's lock).
  for (const name of readRegistry(dir)) known.add(name);
  if (known.has(doc)) return true;
  if (known.size >= MAX_REGISTRY) return false;
  known.add(doc);
  writeFileAtomicSync(join(dir, REGISTRY_FILE), `${JSON.stringify([...known].sort())}\n`);
  return true;
}

/** The events an outbox read from a document holds: whole events with a sequence, within an event's size. */
export function outboxEvents(v: unknown): LoggedEvent[] {
  if (!Array.isArray(v)) return [];
  const out: LoggedEvent[] = [];
  for (const e of v.slice(0, MAX_OUTBOX)) {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) continue;
    const line = JSON.stringify(e);
    if (line.length > MAX_EVENT_BYTES) continue;
    const parsed = parseLine(line);
    if (parsed) out.push(parsed);
  }
  return out;
}

/**
 * The events to put back after `last`: those of `outboxes` numbered on from it without a gap (each sequence
 * once, in order). A sequence none holds was never acknowledged (its writer died before its document was written):
 * what follows it cannot have been given either.
 */
export function numberedOn(last: number, outboxes: readonly LoggedEvent[][]): LoggedEvent[] {
  const bySeq = new Map<number, LoggedEvent>();
  for (const list of outboxes)
    for (const e of list) if (e.seq > last && !bySeq.has(e.seq)) bySeq.set(e.seq, e);
  const out: LoggedEvent[] = [];
  for (let seq = last + 1; bySeq.has(seq); seq++) out.push(bySeq.get(seq)!);
  return out;
}

/**
 * Splits a document as read into its value (served without the outbox) and its outbox: the entries with a
 * sequence, as they are (carried forward by the document's next write; checked whole only when put back).
 */
export function splitOutbox(value: unknown): { value: unknown; outbox: LoggedEvent[] | undefined } {
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    !Object.hasOwn(value, OUTBOX_KEY)
  )
    return { value, outbox: undefined };
  const { [OUTBOX_KEY]: box, ...rest } = value as Record<string, unknown>;
  const outbox: LoggedEvent[] = [];
  if (Array.isArray(box))
    for (const e of box.slice(0, MAX_OUTBOX)) {
      const seq = (e as { seq?: unknown } | null)?.seq;
      if (typeof e === 'object' && !Array.isArray(e) && isSeq(seq) && seq > 0) outbox.push(e as LoggedEvent);
    }
  return { value: rest, outbox };
}

/** The document text with `outbox` as its last key (`text` is the value's compact JSON, an object). */
export function withOutbox(text: string, outbox: readonly LoggedEvent[] | undefined): string {
  if (!outbox || outbox.length === 0 || !text.startsWith('{')) return text;
  const box = `${JSON.stringify(OUTBOX_KEY)}:${JSON.stringify(outbox)}`;
  return text === '{}' ? `{${box}}` : `${text.slice(0, -1)},${box}}`;
}

/**
 * Where a machine crash's debris starts in a segment of `size` bytes on `fd`: the start of the first line holding a
 * NUL byte (the log never writes one: JSON escapes it), else `size`. A crash can leave the unsynced end of a file
 * as zeros, or a hole of zeros before lines that were written back; whatever follows such a hole may have lost
 * its predecessors, so all of it goes (the outboxes give back what was acknowledged). Lines of text that are not
 * events are not debris: they stay, set aside by readers, and a last one is refused as before.
 */
export function debrisStart(fd: number, size: number): number {
  const buf = Buffer.allocUnsafe(Math.min(size, 1024 * 1024));
  for (let pos = 0; pos < size; ) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
    if (n === 0) break;
    const nul = buf.subarray(0, n).indexOf(0);
    if (nul >= 0) {
      // Back to the start of its line: the newline before it, in this chunk or an earlier one.
      let at = pos + nul;
      const back = Buffer.allocUnsafe(4096);
      while (at > 0) {
        const from = Math.max(0, at - back.length);
        const got = readSync(fd, back, 0, at - from, from);
        const nl = back.subarray(0, got).lastIndexOf(10);
        if (nl >= 0) return from + nl + 1;
        at = from;
      }
      return 0;
    }
    pos += n;
  }
  return size;
}
