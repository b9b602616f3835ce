import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import {
  HubError,
  RefusedError,
  StateConflictError,
  ValidationError,
  writeFileAtomicSync,
} from '../../infra/index.js';
import { EMPTY_ETAG, etagOf } from '../etag.js';
import { acquireLock } from '../file-lock.js';
import type { DocumentStore, Versioned } from '../store.js';

/** Directories of the advisory-coordination (ACL) collections, laid out for the coordination rooms. */
export const ACL_COLLECTIONS = ['branches', 'leases', 'worktrees', 'claims', 'agents', 'events'] as const;

/** The events document derived from objectives and handoffs; only `coord.events` may be written. */
export const DERIVED_EVENTS_DOCUMENT = 'events';

const NAME_RE = /^[a-z][a-z0-9_.-]*$/;

export interface LocalStoreOptions {
  /** The `.hub/` directory. */
  dir: string;
  lockTimeoutMs?: number;
  staleLockMs?: number;
  now?: () => Date;
}

/**
 * Files under `.hub/`: every write happens under an inter-process lock, re-checks the ETag on disk and replaces
 * the file atomically, so concurrent CLI processes never lose an update and a crash never tears a document.
 */
export function createLocalStore(opts: LocalStoreOptions): DocumentStore {
  const dir = opts.dir;
  const lockDir = join(dir, 'locks');
  const lockOpts = { timeoutMs: opts.lockTimeoutMs ?? 15_000, staleMs: opts.staleLockMs ?? 60_000 };
  const now = opts.now ?? (() => new Date());
  const fileOf = (name: string) => {
    if (!NAME_RE.test(name))
      throw new ValidationError(`invalid state document name '${name}'`, { field: 'name', value: name });
    return join(dir, `${name}.json`);
  };
  const ensureDirs = () => {
    mkdirSync(lockDir, { recursive: true });
    for (const c of ACL_COLLECTIONS) mkdirSync(join(dir, c), { recursive: true });
  };

  /** Reads a document; a corrupt file is moved aside (kept, never overwritten) and reported. */
  const load = (name: string): unknown => {
    const file = fileOf(name);
    if (!existsSync(file)) return undefined;
    const text = readFileSync(file, 'utf8');
    try {
      return JSON.parse(text);
    } catch (err) {
      const aside = `${file}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`;
      try {
        renameSync(file, aside);
      } catch {
        // another process moved it first
      }
      throw new HubError(
        'internal',
        `state document '${name}' at ${file} was not valid JSON (${(err as Error).message}); it was kept as ${aside} and the document starts empty on the next write`,
        { document: name, file, kept_as: aside },
      );
    }
  };

  const locked = async <T>(name: string, fn: () => T): Promise<T> => {
    ensureDirs();
    const release = await acquireLock(join(lockDir, `${name}.lock`), lockOpts);
    try {
      return fn();
    } finally {
      release();
    }
  };

  return {
    backend: 'local',
    async read<T>(name: string): Promise<Versioned<T>> {
      const value = load(name) as T | undefined;
      return { value, etag: etagOf(value) };
    },
    async write(name, value, ifMatch) {
      if (name === DERIVED_EVENTS_DOCUMENT) {
        throw new RefusedError(
          `'${name}' is derived from objectives and handoffs and cannot be written; write 'coord.events'`,
          { document: name },
        );
      }
      return locked(name, () => {
        const current = etagOf(load(name)) ?? EMPTY_ETAG;
        if (ifMatch !== current) {
          throw new StateConflictError(
            `document '${name}' changed since it was read (If-Match ${ifMatch}, now ${current})`,
            { document: name },
          );
        }
        writeFileAtomicSync(fileOf(name), `${JSON.stringify(value, null, 2)}\n`);
        return etagOf(value)!;
      });
    },
    async append(name, key, item) {
      if (name === DERIVED_EVENTS_DOCUMENT)
        throw new RefusedError(`'${name}' is derived and cannot be written`, { document: name });
      return locked(name, () => {
        const doc = (load(name) as Record<string, unknown> | undefined) ?? {};
        const list = Array.isArray(doc[key]) ? (doc[key] as unknown[]) : [];
        const next = { ...doc, [key]: [...list, item] };
        writeFileAtomicSync(fileOf(name), `${JSON.stringify(next, null, 2)}\n`);
        return etagOf(next)!;
      });
    },
  };
}
