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
import { DOCUMENT_NAME_RE } from '../remote-routes.js';
import { readBytes } from './local-log-files.js';

// The small files of the local events log besides its segments (local-outbox.ts says what they are for): the
// marker (`recovery.json`: the boot it was written in, the synced sequence, the change in flight) and the
// registry of documents that ever carried an outbox (`outboxes.json`). Both are hostile input in a cloned
// workspace: read only when regular files, bounded, and checked field by field.

/** The marker file in the log folder: the boot it was written in, the synced sequence, a change in flight. */
export const MARKER_FILE = 'recovery.json';
/** The registry of documents that ever carried an outbox (written durably before the first one does). */
export const REGISTRY_FILE = 'outboxes.json';
/** Most documents the registry names; past it a change is recorded with a synced append, as without an outbox. */
export const MAX_REGISTRY = 4096;

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

export const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

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
    return readBytes(fd, MAX_SMALL_FILE).toString('utf8');
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
