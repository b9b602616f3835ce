import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  fsyncDir,
  HubError,
  inTurn,
  RefusedError,
  randomHex,
  resolveReal,
  StateConflictError,
  tryReadFileBounded,
  writeFileAtomicSync,
} from '../../infra/index.js';
import { EMPTY_ETAG, etagOf } from '../etag.js';
import { DEFAULT_EVENT_RETENTION, type EventRetention, LEGACY_EVENTS_DOCUMENT } from '../event-log.js';
import { acquireLock, type HeldLock } from '../file-lock.js';
import {
  checkCollectionName,
  checkStoreDocumentName,
  DOCUMENT_NAME_RE,
  splitDocumentName,
} from '../remote-routes.js';
import {
  appendItem,
  assertDocument,
  checkStoredSize,
  type DocumentStore,
  refuseDerivedEvents,
  type UpdateFn,
  type UpdateResult,
  type Versioned,
} from '../store.js';
import { createEtagMemo } from './etag-memo.js';
import { createLocalEventLog, LOG_LOCK } from './local-event-log.js';
import { type Boxed, splitOutbox, withOutbox } from './local-outbox.js';

/** Directories of the advisory-coordination (ACL) collections, laid out for the coordination rooms. */
export const ACL_COLLECTIONS = ['branches', 'leases', 'worktrees', 'claims', 'agents', 'events'] as const;

export { DERIVED_EVENTS_DOCUMENT } from '../store.js';

/**
 * File timestamps are coarse (a clock tick, or a second on some filesystems): a file modified less than this long
 * ago could change again without its timestamp moving, so `version` gives no token for it (as git's "racy clean").
 */
const RACY_MS = 2_000;

/** A document as read: its parsed value and the text it was parsed from (both undefined when absent). */
interface Loaded {
  value: unknown;
  text: string | undefined;
  /** The events of its latest changes it carries until the events log holds them durably (local-outbox.ts). */
  outbox?: Boxed[];
}
const ABSENT: Loaded = { value: undefined, text: undefined };

/** A lock-free read met an unparsable file; the read retries under the lock, which quarantines it. */
class CorruptDocument extends Error {}

/**
 * Largest document file read. Inputs are bounded far below (8 MiB a document); this only stops a file that is
 * not one of hub's (a planted /dev/zero-sized file) from being read whole.
 */
export const MAX_DOCUMENT_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A lock file untouched this long is stale. Its holder touches it every 2 s while it holds it, so this only passes
 * for a holder that is gone (or stuck); it is below the 15 s a writer waits, so a lock planted by a clone or left
 * by a crash is broken within one wait.
 */
export const DEFAULT_STALE_LOCK_MS = 10_000;

export interface LocalStoreOptions {
  /** The `.hub/` directory. */
  dir: string;
  /** The folder `.hub/` must stay inside on the real path (default: the folder that holds it, the workspace). */
  root?: string;
  lockTimeoutMs?: number;
  /** See DEFAULT_STALE_LOCK_MS. */
  staleLockMs?: number;
  now?: () => Date;
  /** Retention of the events log (`state.events`). */
  retention?: EventRetention;
  /** Events per log segment (SEGMENT_EVENTS; tests lower it). */
  segmentEvents?: number;
}

/**
 * The documents (folder and name) the current async context holds: a write from inside an update's `fn`, through
 * any handle on the same folder, is refused at once instead of queueing behind itself.
 */
const holding = new AsyncLocalStorage<{ names: Set<string>; dir: string; real: string }>();

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Files under `.hub/`: every write happens under an inter-process lock, re-checks the ETag on disk (or, for
 * `update`, reads and applies under that lock) and replaces the file atomically, so concurrent CLI processes never
 * lose an update and a crash never tears a document.
 */
export function createLocalStore(opts: LocalStoreOptions): DocumentStore {
  const root = opts.root ?? dirname(opts.dir);
  /**
   * The real `.hub/` folder, checked on every use: the workspace may be a cloned repository, and a `.hub` that is
   * a symlink out of it would take every write (and the lock folders) elsewhere. A symlink inside is fine.
   */
  const realDir = (): string => {
    const real = resolveReal(root, opts.dir);
    if (!real)
      throw new RefusedError(
        `the state folder ${opts.dir} resolves outside the workspace ${root}; remove the symlink, or point state at another backend`,
        { dir: opts.dir, root, rule: 'state_inside_workspace' },
      );
    return real;
  };
  const dir = opts.dir;
  const lockOpts = {
    timeoutMs: opts.lockTimeoutMs ?? 15_000,
    staleMs: opts.staleLockMs ?? DEFAULT_STALE_LOCK_MS,
  };
  const now = opts.now ?? (() => new Date());
  /** The document's file, relative to `.hub/`: `<name>.json`, or `<collection>/<key>.json` for a collection's. */
  const fileOf = (name: string) => {
    return `${checkStoreDocumentName(name)}.json`;
  };
  // `version` runs on every cached GET of the HTTP server: it skips re-checking and re-joining known names.
  const versionPaths = new Map<string, string>();
  // Made once per handle and folder (a lock whose folder was removed since makes it again: acquireLock).
  let ensured: string | undefined;
  const ensureDirs = (real: string) => {
    if (ensured === real) return;
    mkdirSync(join(real, 'locks'), { recursive: true });
    for (const c of ACL_COLLECTIONS) mkdirSync(join(real, c), { recursive: true });
    ensured = real;
  };

  /**
   * Reads a document. A corrupt file is reported; only a caller holding the lock (`quarantine`) moves it aside
   * (kept, never overwritten), so a lock-free reader can never move away a valid file written meanwhile.
   */
  const load = (name: string, quarantine: boolean): Loaded => {
    const real = realDir();
    const file = join(real, fileOf(name));
    // No state folder yet: no document (the bounded read below confines itself to a folder that exists).
    if (!existsSync(real)) return ABSENT;
    // Regular files only, never blocking, bounded on the bytes read: a FIFO or /dev/zero in its place is refused.
    const got = tryReadFileBounded(file, {
      maxBytes: MAX_DOCUMENT_FILE_BYTES,
      root: real,
      rootName: 'the state folder',
    });
    if (!got.ok) {
      if (got.rule === 'exists') return ABSENT;
      throw new RefusedError(
        `state document '${name}' at ${file} cannot be read: ${got.reason}; move it aside`,
        {
          document: name,
          file,
          rule: got.rule,
        },
      );
    }
    const text = got.bytes.toString('utf8');
    try {
      const { value, outbox } = splitOutbox(JSON.parse(text));
      return outbox ? { value, text, outbox } : { value, text };
    } catch (err) {
      if (!quarantine) throw new CorruptDocument();
      const stamp = now().toISOString().replace(/[:.]/g, '-');
      const aside = `${file}.corrupt-${stamp}-${randomHex(3)}`;
      renameSync(file, aside);
      throw new HubError(
        'internal',
        `state document '${name}' at ${file} was not valid JSON (${(err as Error).message}); it was kept as ${aside} and the document starts empty on the next write`,
        { document: name, file, kept_as: aside },
      );
    }
  };

  // Documents this store holds locked: the lock is not re-entrant, so a write from inside an update's `fn` would
  // wait for itself until the lock timeout; it is refused at once instead.
  const held = new Map<string, HeldLock>();
  const locked = async <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
    fileOf(name); // validates the name before it becomes part of the lock's path
    const { collection } = splitDocumentName(name);
    const real = realDir();
    const key = `${real}\0doc:${name}`;
    if (holding.getStore()?.names.has(key))
      throw new HubError('internal', `state document '${name}' is already held by an update of this store`, {
        document: name,
        rule: 'no_reentrant_update',
      });
    ensureDirs(real);
    if (collection) {
      mkdirSync(join(real, collection), { recursive: true });
      mkdirSync(join(real, 'locks', collection), { recursive: true });
    }
    // Writers of this process queue here (an update may await I/O while it holds the document: its events' sync);
    // other processes wait on the lock file.
    return inTurn(key, async () => {
      const lock = await acquireLock(join(real, 'locks', `${name}.lock`), lockOpts);
      held.set(name, lock);
      try {
        const names = new Set(holding.getStore()?.names);
        names.add(key);
        return await holding.run({ names, dir, real }, fn);
      } finally {
        held.delete(name);
        lock.release();
      }
    });
  };
  // Compact: the files are read by programs, and indentation made large documents several times bigger.
  // Files written indented by earlier versions read the same.
  const persist = (
    name: string,
    value: unknown,
    etag = etagOf(value)!,
    outbox?: readonly Boxed[],
    syncDir = true,
  ): string => {
    const json = JSON.stringify(value);
    checkStoredSize(name, json);
    const text = `${withOutbox(json, outbox)}\n`;
    // A holder stalled past the stale age may have lost its lock to another writer: then it must not write.
    held.get(name)?.assertHeld();
    writeFileAtomicSync(join(realDir(), fileOf(name)), text, 0o644, { syncDir });
    etags.remember(name, text, etag);
    return etag;
  };
  const etags = createEtagMemo();
  const etagOfLoaded = (name: string, got: Loaded) =>
    got.text === undefined ? undefined : etags.etagOf(name, got.text, got.value);

  const events = createLocalEventLog({
    realDir,
    retention: opts.retention ?? DEFAULT_EVENT_RETENTION,
    segmentEvents: opts.segmentEvents,
    readLegacy: () => {
      try {
        return load(LEGACY_EVENTS_DOCUMENT, false).value;
      } catch (err) {
        // A legacy document that is not JSON holds nothing to migrate; it stays where it is.
        if (err instanceof CorruptDocument) return undefined;
        throw err;
      }
    },
    readOutbox: (doc) => {
      try {
        return load(doc, false).outbox ?? [];
      } catch {
        // Unreadable or not JSON: it carries nothing to put back.
        return [];
      }
    },
    async locked(fn) {
      // Inside a document's update the folder was just checked (by the same step): not again.
      const ctx = holding.getStore();
      const real = ctx?.dir === dir ? ctx.real : realDir();
      ensureDirs(real);
      return inTurn(`${real}\0log`, async () => {
        // Lingers: the log's lock is the one every recording writer takes; a chain of changes (or writers of this
        // process queued behind this one) keeps it, and the log's open end with it (local-event-log.ts).
        const lock = await acquireLock(join(real, 'locks', LOG_LOCK), { ...lockOpts, linger: true });
        try {
          return await fn(lock, real);
        } finally {
          lock.release();
        }
      });
    },
  });

  return {
    backend: 'local',
    events,
    async read<T>(name: string): Promise<Versioned<T>> {
      let got: Loaded;
      try {
        got = load(name, false);
      } catch (err) {
        if (!(err instanceof CorruptDocument)) throw err;
        got = await locked(name, () => load(name, true));
      }
      return { value: got.value as T | undefined, etag: etagOfLoaded(name, got) };
    },
    async write(name, value, ifMatch) {
      refuseDerivedEvents(name);
      assertDocument(name, value);
      return locked(name, () => {
        const got = load(name, true);
        const current = etagOfLoaded(name, got) ?? EMPTY_ETAG;
        if (ifMatch !== current) {
          throw new StateConflictError(
            `document '${name}' changed since it was read (If-Match ${ifMatch}, now ${current})`,
            { document: name },
          );
        }
        // The outbox goes on: its events may not be in the log durably yet.
        return persist(name, value, undefined, got.outbox);
      });
    },
    async update<T, R>(name: string, fn: UpdateFn<T, R>): Promise<UpdateResult<T, R>> {
      refuseDerivedEvents(name);
      // Read, apply and write under the one lock: writers of other processes wait here instead of conflicting.
      return locked(name, async () => {
        const got = load(name, true);
        const before = etagOfLoaded(name, got);
        const { value, result, events: changes } = await fn(got.value as T | undefined);
        assertDocument(name, value);
        const etag = etagOf(value)!;
        const recording = changes !== undefined && changes.length > 0;
        const changed = etag !== before;
        if (!recording) {
          if (changed) persist(name, value, etag, got.outbox);
          return { result, etag, value };
        }
        // The change's events, in the same step, under the log's lock taken while this document's is held (always
        // in that order, so two writers never wait for each other). Where the document is an object they travel
        // inside its own write (its outbox: one durable write, as the document alone), and their lines follow;
        // a crash in between is put right by the next append (local-outbox.ts). Elsewhere the document is written
        // first and the lines synced after, with its folder: a crash in between leaves the change unrecorded
        // (the feed derives it from the document), never an event of a change that was not made.
        if (changed && events.outboxes && isObject(value)) {
          const recorded = await events.appendMany(changes, {
            outbox: { doc: name, prior: got.outbox ?? [], write: (box) => persist(name, value, etag, box) },
          });
          return { result, etag, value, recorded };
        }
        if (changed) persist(name, value, etag, got.outbox, false);
        const folder = dirname(join(realDir(), fileOf(name)));
        const recorded = await events.appendMany(
          changes,
          changed ? { alsoSync: () => fsyncDir(folder) } : {},
        );
        return { result, etag, value, recorded };
      });
    },
    async list(collection) {
      checkCollectionName(collection);
      const real = realDir();
      let entries: import('node:fs').Dirent[];
      try {
        entries = readdirSync(join(real, collection), { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      // Regular files only (a planted FIFO or link is no document), named as the rule allows.
      return entries
        .filter((e) => e.isFile() && e.name.endsWith('.json'))
        .map((e) => `${collection}/${e.name.slice(0, -'.json'.length)}`)
        .filter((n) => DOCUMENT_NAME_RE.test(n))
        .sort();
    },
    version(name) {
      let file = versionPaths.get(name);
      if (file === undefined) {
        // Not checked here (a stat per cached GET): the read it guards checks the folder.
        file = join(dir, fileOf(name));
        if (versionPaths.size < 1024) versionPaths.set(name, file);
      }
      let st: import('node:fs').Stats | undefined;
      try {
        st = statSync(file, { throwIfNoEntry: false });
      } catch {
        return undefined;
      }
      if (!st) return 'absent';
      // Every write renames a new file into place: inode, size and times together change on each one.
      const now = Date.now();
      if (now - st.mtimeMs < RACY_MS || now - st.ctimeMs < RACY_MS) return undefined;
      return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    },
    async append(name, key, item) {
      refuseDerivedEvents(name);
      return locked(name, () => {
        const got = load(name, true);
        const next = appendItem(name, got.value, key, item);
        return persist(name, next, undefined, got.outbox);
      });
    },
  };
}
