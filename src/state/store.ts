import { MAX_DOCUMENT_BYTES, RefusedError, StateConflictError, ValidationError } from '../infra/index.js';
import type { EventLog } from './event-log.js';

/** A JSON document as stored; `undefined` value means the document does not exist. */
export interface Versioned<T = unknown> {
  value: T | undefined;
  /** Absent for an empty document. */
  etag: string | undefined;
}

/** Named JSON documents with compare-and-swap writes; every backend implements exactly this. */
export interface DocumentStore {
  readonly backend: string;
  read<T = unknown>(name: string): Promise<Versioned<T>>;
  /**
   * Replaces the document when `ifMatch` equals its current ETag (`""` for a document that does not exist yet);
   * throws StateConflictError otherwise. Returns the new ETag.
   */
  write(name: string, value: unknown, ifMatch: string): Promise<string>;
  /**
   * The workspace's events log (event-log.ts): every backend of this build has one; a store written against the
   * older interface keeps its events in the `coord.events` document.
   */
  events?: EventLog;
  /** Appends an item to the list under `key` without compare-and-swap (handoff create). */
  append(name: string, key: string, item: unknown): Promise<string>;
  /**
   * Atomic read-modify-write, where the backend can serialize writers itself (local: under the inter-process
   * lock; memory: within the process): reads the document, applies `fn` to a private copy and stores what it
   * returns, with no other writer in between, so writers queue instead of conflicting. Nothing is written when
   * `fn` throws, or when its value equals the stored document. `fn` must not use the store (the document is
   * held). Absent on backends that cannot (http): updateDocument then uses compare-and-swap.
   */
  update?<T, R>(name: string, fn: UpdateFn<T, R>): Promise<UpdateResult<T, R>>;
  /**
   * Backends that are a hub server (http) run an operation where its documents live: sends `body` (JSON) to
   * `method path` of that server and returns its answer. `found: false` when the server has no such route
   * (405, 501, or a 404 that names no input field), so the caller can apply the operation itself; every other
   * error is thrown as the class the server reported.
   */
  callRoute?(method: string, path: string, body: unknown): Promise<RouteAnswer>;
  /**
   * Names of the documents of a collection (`claims` -> `['claims/a~b', ...]`), sorted. Every backend of this
   * build has it; optional for stores written against the older interface.
   */
  list?(collection: string): Promise<string[]>;
  /**
   * Every document of this org and workspace, sorted (collection documents and plain ones): what `hub state
   * migrate` copies. Optional: migrate falls back to the known document names and `list` of known collections.
   */
  listAll?(): Promise<string[]>;
  /** Creates what the backend needs (a table, indexes); idempotent (`hub state init`). */
  init?(): Promise<StoreInit>;
  /** Where the documents live and whether it is usable, secrets redacted (`hub state info`, gate status). */
  describe?(): Promise<StoreDescription>;
  close?(): Promise<void>;
  /**
   * A cheap token that changes whenever the document may have changed (a read cache keys on it), or undefined
   * when the backend cannot tell cheaply or the document changed too recently to trust timestamps. Taken before
   * the read it guards, so what is cached under a token is never older than the token.
   */
  version?(name: string): string | undefined;
}

/** What `init` did: `created` the first time, `existing` after; plus where (secrets redacted). */
export interface StoreInit {
  backend: string;
  status: 'created' | 'existing';
  [detail: string]: unknown;
}

/** Backend-specific facts for `hub state info` (JSON-safe, never a secret). */
export type StoreDescription = Record<string, unknown>;

/** What a hub server answered to an operation route: its JSON body, or that it has no such route. */
export type RouteAnswer = { found: true; json: unknown } | { found: false; status: number };

/**
 * A read-modify-write step: the new document, what the caller gets back, and the events the change records (to
 * the store's events log, in the same step as the write where the backend can: see updateDocument).
 */
export type UpdateFn<T, R> = (current: T | undefined) => UpdateStep<T, R> | Promise<UpdateStep<T, R>>;

export interface UpdateStep<T, R> {
  value: T;
  result: R;
  events?: Record<string, unknown>[];
}

export interface UpdateResult<T, R> {
  result: R;
  etag: string;
  value: T;
  /** The sequences and ids of `events`, when the backend recorded them in the same step as the write. */
  recorded?: Array<{ seq: number | undefined; id: unknown }>;
}

export interface UpdateOptions {
  /** Reload-and-reapply attempts after the first conflict (state.conflict_retries, default 1). */
  retries: number;
  /** Waits between attempts (tests pass a recorder); default a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** First backoff ceiling and its cap (ms): attempt k waits a random time in [0, min(cap, base * 2^k)). */
const BACKOFF_BASE_MS = 10;
const BACKOFF_CAP_MS = 500;

/** Exponential backoff with full jitter before retry `attempt` (1-based), so retrying writers spread out. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1)));
}

const timer = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Read-modify-write. A backend with an atomic `update` (local, memory) applies `fn` once with no other writer in
 * between. Otherwise (http) compare-and-swap: applies `fn` to the current document and writes it with If-Match;
 * on a conflict waits (exponential backoff, full jitter), reloads and reapplies, up to `retries` times, then
 * throws StateConflictError. `fn` must be pure: it may run more than once.
 */
export async function updateDocument<T, R = void>(
  store: DocumentStore,
  name: string,
  fn: UpdateFn<T, R>,
  opts: UpdateOptions,
): Promise<UpdateResult<T, R>> {
  const out = await writeDocument(store, name, fn, opts);
  return out.recorded || !out.events?.length
    ? out
    : { ...out, recorded: await recordAfter(store, out.events) };
}

/**
 * The events of a change on a backend that cannot record them in the write's own step (compare-and-swap:
 * DynamoDB, MongoDB, http): recorded right after it. A crash in between leaves the change unrecorded, never an
 * event of a change that was not made (docs/decisions.md, events log).
 */
async function recordAfter(
  store: DocumentStore,
  events: Record<string, unknown>[],
): Promise<Array<{ seq: number | undefined; id: unknown }>> {
  const out: Array<{ seq: number | undefined; id: unknown }> = [];
  if (!store.events) return out;
  for (const e of events) out.push(await store.events.append(e));
  return out;
}

async function writeDocument<T, R>(
  store: DocumentStore,
  name: string,
  fn: UpdateFn<T, R>,
  opts: UpdateOptions,
): Promise<UpdateResult<T, R> & { events?: Record<string, unknown>[] }> {
  // The events of the attempt that was written (fn may run more than once).
  let events: Record<string, unknown>[] | undefined;
  const tracked: UpdateFn<T, R> = async (cur) => {
    const step = await fn(cur);
    events = step.events;
    return step;
  };
  if (store.update) {
    const out = await store.update<T, R>(name, tracked);
    return { ...out, events };
  }
  let lastErr: unknown;
  for (let attempt = 0; attempt <= opts.retries; attempt++) {
    if (attempt > 0) await (opts.sleep ?? timer)(backoffMs(attempt));
    const cur = await store.read<T>(name);
    const clone = cur.value === undefined ? undefined : (structuredClone(cur.value) as T);
    const { value, result, events: stepEvents } = await fn(clone);
    try {
      const etag = await store.write(name, value, cur.etag ?? '""');
      return { result, etag, value, events: stepEvents };
    } catch (err) {
      if (!(err instanceof StateConflictError)) throw err;
      lastErr = err;
    }
  }
  throw new StateConflictError(`document '${name}' changed under ${opts.retries + 1} attempts; try again`, {
    document: name,
    attempts: opts.retries + 1,
    cause: (lastErr as Error)?.message,
  });
}

/**
 * The document after appending `item` to its list under `key`; every backend's `append` uses it. An absent
 * document or key starts a list; a document that is not an object, or a `key` that holds something other than a
 * list, is refused (409) rather than silently overwritten.
 */
export function appendItem(name: string, doc: unknown, key: string, item: unknown): Record<string, unknown> {
  if (doc === undefined || doc === null) return { [key]: [item] };
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new RefusedError(
      `cannot append to '${name}': the document is not a JSON object`,
      { document: name, key, rule: 'append_target_object' },
      409,
    );
  }
  const obj = doc as Record<string, unknown>;
  const list = obj[key];
  if (list === undefined) return { ...obj, [key]: [item] };
  if (!Array.isArray(list)) {
    throw new RefusedError(
      `cannot append to '${name}': '${key}' holds ${list === null ? 'null' : typeof list}, not a list`,
      { document: name, key, value: list, rule: 'append_target_list' },
      409,
    );
  }
  return { ...obj, [key]: [...list, item] };
}

/** Refuses a write of no document (`undefined` or `null`), which would read back as empty or as a corrupt file. */
export function assertDocument(name: string, value: unknown): void {
  if (value === undefined || value === null)
    throw new ValidationError(`state document '${name}' must be a JSON value, not ${String(value)}`, {
      document: name,
      field: 'value',
      rule: 'document_present',
    });
  if (typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, OUTBOX_KEY))
    throw new ValidationError(
      `state document '${name}': the key '${OUTBOX_KEY}' is reserved (the local backend keeps a change's events under it until its events log is synced); rename the key`,
      { document: name, field: OUTBOX_KEY, rule: 'reserved_key' },
    );
}

/**
 * The key under which the local backend keeps, in a document's own file, the events of its latest changes until
 * the events log holds them durably (local-outbox.ts). Never served; refused in a document given to any backend.
 */
export const OUTBOX_KEY = 'hub:outbox';

/**
 * Refuses a document whose stored text (compact JSON, or the canonical JSON, which has the same length) would be
 * larger than MAX_DOCUMENT_BYTES. Every backend checks it on every write path (write, append, update) before
 * anything is stored: bounding what comes in is not enough, since appends and updates grow what is there.
 */
export function checkStoredSize(name: string, text: string): void {
  // UTF-8 takes at least one byte per UTF-16 unit and at most three: most texts are judged without counting.
  if (text.length * 3 <= MAX_DOCUMENT_BYTES) return;
  const bytes = text.length > MAX_DOCUMENT_BYTES ? text.length : Buffer.byteLength(text, 'utf8');
  if (bytes <= MAX_DOCUMENT_BYTES) return;
  throw new ValidationError(
    `state document '${name}' would take ${bytes} bytes stored, past the limit of 8 MiB (${MAX_DOCUMENT_BYTES} bytes) of a stored document (max_document_bytes); nothing was written: remove items from it first`,
    { document: name, field: 'value', value: bytes, limit: MAX_DOCUMENT_BYTES, rule: 'max_document_bytes' },
  );
}

/** The events document derived from objectives and handoffs; only `coord.events` may be written. */
export const DERIVED_EVENTS_DOCUMENT = 'events';

/** Refuses a write of the derived events name, on every backend (the HTTP routes say so whatever the backend). */
export function refuseDerivedEvents(name: string): void {
  if (name === DERIVED_EVENTS_DOCUMENT)
    throw new RefusedError(
      `'${name}' is derived from objectives and handoffs and cannot be written; write 'coord.events'`,
      { document: name },
    );
}
