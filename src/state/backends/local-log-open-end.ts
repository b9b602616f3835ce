import { closeSync } from 'node:fs';
import type { Tail } from './local-log-files.js';
import type { Marker, MarkerFile } from './local-log-marker.js';

/** The events log's lock as an append holds it (local-event-log.ts). */
export interface LogLock {
  assertHeld(): void;
  onRelease(fn: () => void): void;
}

/**
 * The log's open end while this process holds the log's lock, by real state folder: the newest segment and the
 * marker open, the segment's tail and the marker as the last append left them. Exact while the same lock is held
 * (nobody else writes the log), so the next append under it opens and reads nothing; closed when the lock is
 * released for good (or the append that took it fails).
 */
export interface OpenEnd {
  lock: LogLock;
  dir: string;
  start: number;
  fd: number;
  size: number;
  tail: Tail;
  markerFile: MarkerFile | undefined;
  marker: Marker | undefined;
}
const openEnds = new Map<string, OpenEnd>();
/** Locks whose release closes their open end (registered once per lock). */
const hooked = new WeakSet<LogLock>();

const closeOpenEnd = (e: OpenEnd) => {
  closeSync(e.fd);
  e.markerFile?.close();
};

/** The open end an append under `lock` continues from (taken out: put back by keepOpenEnd once it succeeds). */
export function takeOpenEnd(real: string, lock: LogLock): OpenEnd | undefined {
  const e = openEnds.get(real);
  if (e === undefined) return undefined;
  openEnds.delete(real);
  if (e.lock === lock) return e;
  // Left under a lock since released (its callback closes what it still holds): not this one's.
  closeOpenEnd(e);
  return undefined;
}

export function keepOpenEnd(real: string, lock: LogLock, e: Omit<OpenEnd, 'lock'>): void {
  const first = !hooked.has(lock);
  openEnds.set(real, { ...e, lock });
  if (!first) return;
  hooked.add(lock);
  lock.onRelease(() => {
    hooked.delete(lock);
    const left = openEnds.get(real);
    if (left?.lock !== lock) return;
    openEnds.delete(real);
    closeOpenEnd(left);
  });
}

export function dropOpenEnd(real: string, lock: LogLock): void {
  const e = takeOpenEnd(real, lock);
  if (e) closeOpenEnd(e);
}
