import { fdatasyncSync, fstatSync, ftruncateSync, readSync } from 'node:fs';
import { DOCUMENT_BOUNDS, findDepthViolation, fsyncDir } from '../../infra/index.js';
import { type LoggedEvent, MAX_EVENT_BYTES } from '../event-log.js';
import { OUTBOX_KEY } from '../store.js';
import { type LogWork, parseLine, putLines, readTail, type Seg, type Tail } from './local-log-files.js';
import { isSeq, readRegistry } from './local-log-marker.js';

// The outbox of the local events log. A change of a document that records events writes them inside the
// document's own atomic write (one durable write, as the document alone costs) under the reserved key OUTBOX_KEY;
// their lines are then appended to the log without a sync of their own, and the log is synced every SYNC_EVERY
// events. What a crash can undo is found again by the next append, under the log's lock:
// - a writer killed between its document and its line leaves `pending` in the marker file: that document's
//   outbox gives the events back, with the sequences they took;
// - a machine crash can take the log's unsynced tail: the marker names the boot it was written in, and an append
//   in another boot cuts the crash's debris from the newest segment and takes back from the outbox of every
//   document that ever carried one (the registry) what numbers on from there.
// The marker and the registry: local-log-marker.ts.
// A document keeps in its outbox only its events the log may not hold durably yet (above `synced`).

/** Events appended through outboxes before the log is synced (bounds an outbox, and what a crash can take back). */
export const SYNC_EVERY = 16;
/** Most events an outbox holds (SYNC_EVERY of its own, with room for a large change; past it a change syncs). */
export const MAX_OUTBOX = 4 * SYNC_EVERY;

/**
 * An event as an outbox carries it: its sequence and its line, exactly as the log holds it. A document carries
 * them as `[seq, line]` pairs, so that writing and reading a document costs no event's serialization or parse.
 */
export interface Boxed {
  seq: number;
  line: string;
}

/** The events an outbox read from a document holds: whole events whose line carries its sequence, within size. */
export function outboxEvents(box: readonly Boxed[]): LoggedEvent[] {
  const out: LoggedEvent[] = [];
  for (const { seq, line } of box) {
    if (line.length > MAX_EVENT_BYTES) continue;
    const parsed = parseLine(line);
    if (parsed?.seq === seq) out.push(parsed);
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
 * Splits a document as read into its value (served without the outbox) and its outbox: the `[seq, line]` entries
 * (an entry written as an event object, as the first builds of the outbox did, is taken as its line), as they are
 * (carried forward by the document's next write; parsed and checked whole only when put back).
 */
export function splitOutbox(value: unknown): { value: unknown; outbox: Boxed[] | undefined } {
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    !Object.hasOwn(value, OUTBOX_KEY)
  )
    return { value, outbox: undefined };
  const { [OUTBOX_KEY]: box, ...rest } = value as Record<string, unknown>;
  const outbox: Boxed[] = [];
  if (Array.isArray(box))
    for (const e of box.slice(0, MAX_OUTBOX)) {
      if (Array.isArray(e)) {
        const [seq, line] = e as unknown[];
        // A line longer than an event can be was never one of hub's (it would never be put back): not carried.
        if (isSeq(seq) && seq > 0 && typeof line === 'string' && line.length <= MAX_EVENT_BYTES)
          outbox.push({ seq, line });
        continue;
      }
      const seq = (e as { seq?: unknown } | null)?.seq;
      if (typeof e !== 'object' || e === null || !isSeq(seq) || seq === 0) continue;
      // A planted entry nested past what the next write can serialize is no event of hub's: not carried.
      if (findDepthViolation(e, DOCUMENT_BOUNDS.depth)) continue;
      const line = JSON.stringify(e);
      if (line.length <= MAX_EVENT_BYTES) outbox.push({ seq, line });
    }
  return { value: rest, outbox };
}

/** The document text with `outbox` as its last key (`text` is the value's compact JSON, an object). */
export function withOutbox(text: string, outbox: readonly Boxed[] | undefined): string {
  if (!outbox || outbox.length === 0 || !text.startsWith('{')) return text;
  let box = `${JSON.stringify(OUTBOX_KEY)}:[`;
  for (let i = 0; i < outbox.length; i++)
    box += `${i === 0 ? '' : ','}[${outbox[i]!.seq},${JSON.stringify(outbox[i]!.line)}]`;
  box += ']';
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

/**
 * Puts back what a crash undid, synced, at the end of the newest segment `seg` (`size` bytes): after a killed
 * writer (`pendingDoc`), the events of that document's outbox that number on from the log; after a machine crash
 * (none), the segment cut from its debris, then the events of every registered document's outbox that number on.
 * Returns the segment's new tail (a tail whose last line is no event is returned as it is: the append refuses it).
 */
export function recoverSegment(
  seg: Seg,
  size: number,
  pendingDoc: string | undefined,
  opts: { readOutbox(doc: string): Boxed[]; perSegment: number; keep: number; work: LogWork },
): Tail {
  if (pendingDoc === undefined) {
    const debris = debrisStart(seg.fd, size);
    if (debris < size) ftruncateSync(seg.fd, debris);
    size = debris;
  }
  const tail = readTail(seg.fd, size, opts.work);
  if (tail.lastBad) return tail;
  if (tail.cut < size) ftruncateSync(seg.fd, tail.cut);
  seg.bytes = tail.cut;
  const last = tail.recent.at(-1)?.seq ?? seg.start - 1;
  const docs = pendingDoc === undefined ? [...readRegistry(seg.dir)] : [pendingDoc];
  // Whole events only, within an event's size: what a document carries is checked when it is put back.
  const back = numberedOn(
    last,
    docs.map((d) => outboxEvents(opts.readOutbox(d))),
  );
  putLines(
    seg,
    back.map((e) => ({ seq: e.seq, line: JSON.stringify(e) })),
    opts.perSegment,
  );
  // What is there now is what the marker will call synced (after a killed writer, lines may be unsynced yet).
  fdatasyncSync(seg.fd);
  if (seg.newFile) fsyncDir(seg.dir);
  if (back.length === 0) return tail;
  return { cut: fstatSync(seg.fd).size, recent: [...tail.recent, ...back].slice(-opts.keep), lastBad: false };
}
