import { DOCS, normalizeAppended, normalizeDocument, recordSequenced } from '../coord/index.js';
import {
  checkJsonBounds,
  DOCUMENT_BOUNDS,
  HubError,
  NotFoundError,
  PreconditionRequiredError,
  ValidationError,
} from '../infra/index.js';
import {
  checkCollectionName,
  DOCUMENT_NAME_RE,
  type DocumentStore,
  type EventLogRead,
  LIST_KEY_RE,
  type SharedDocument,
  sharedDocument,
} from '../state/index.js';

export {
  COLLECTION_NAME_RE,
  DOCUMENT_NAME_RE,
  SHARED_DOCUMENTS,
  type SharedDocument,
  STATE_ROUTE,
} from '../state/index.js';

/** A document as the whole-document routes serve it. */
export interface DocumentSnapshot {
  /** The stored document; for an empty one `{[key]: []}` (shared documents) or `null`. Read-only: it may be shared. */
  body: unknown;
  /** `body` as JSON text, ready to send. */
  text: string;
  /** `text` as UTF-8 bytes (encoded once per version, not per request). */
  bytes: Buffer;
  /** Absent for an empty document (concurrency rule 2). */
  etag: string | undefined;
}

const MAX_CACHED_DOCUMENTS = 256;

/** Bounds of one appended item: it lands two levels down (document, list). */
const APPEND_BOUNDS = Object.freeze({ depth: DOCUMENT_BOUNDS.depth - 2, bytes: DOCUMENT_BOUNDS.bytes });

/** Snapshots by store and document, valid while the store's version token of the document is unchanged. */
const snapshots = new WeakMap<DocumentStore, Map<string, { token: string; snap: DocumentSnapshot }>>();

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a document name from a route against the store's rule. */
export function checkDocumentName(name: string): string {
  if (!DOCUMENT_NAME_RE.test(name))
    throw new ValidationError(`document: '${name}' is not a valid state document name`, {
      field: 'name',
      value: name,
      rule: DOCUMENT_NAME_RE.source,
    });
  return name;
}

/** True when a GET query asks for exactly the whole document (its ETag describes only that). */
export function asksWholeDocument(doc: SharedDocument, query: Record<string, unknown>): boolean {
  if (Object.keys(doc.wholeQuery).length === 0) {
    // The common case, without allocating: no query at all.
    for (const k in query) if (query[k] !== undefined) return false;
    return true;
  }
  const given = Object.entries(query).filter(([, v]) => v !== undefined);
  const want = Object.entries(doc.wholeQuery);
  return given.length === want.length && want.every(([k, v]) => query[k] === v);
}

/**
 * Reads a document for a GET: the stored value with its ETag, or the empty shape without one. A backend with
 * version tokens (local) lets an unchanged document skip parsing, hashing and serializing: the token is taken
 * before the read, so what is cached is never older than the token it is filed under.
 */
export async function readStateDocument(store: DocumentStore, name: string): Promise<DocumentSnapshot> {
  checkDocumentName(name);
  return cachedStateDocument(store, name) ?? (await freshSnapshot(store, name, store.version?.(name)));
}

/** The cached snapshot of a document when its version token is unchanged (no I/O beyond a stat), else undefined. */
export function cachedStateDocument(store: DocumentStore, name: string): DocumentSnapshot | undefined {
  // Only names that passed checkDocumentName on a fresh read are ever in the cache.
  const hit = snapshots.get(store)?.get(name);
  if (!hit) return undefined;
  const token = store.version?.(name);
  return token !== undefined && hit.token === token ? hit.snap : undefined;
}

async function freshSnapshot(
  store: DocumentStore,
  name: string,
  token: string | undefined,
): Promise<DocumentSnapshot> {
  let byName = snapshots.get(store);
  const { value, etag } = await store.read(name);
  let snap: DocumentSnapshot;
  if (etag === undefined) {
    const shared = sharedDocument(name);
    const body = shared ? { [shared.key]: [] } : null;
    const text = JSON.stringify(body);
    snap = { body, text, bytes: Buffer.from(text, 'utf8'), etag: undefined };
  } else {
    const text = JSON.stringify(value);
    snap = { body: value, text, bytes: Buffer.from(text, 'utf8'), etag };
  }
  // Bounded: names come from requests, and a miss only costs a read.
  if (token !== undefined && (byName?.has(name) || (byName?.size ?? 0) < MAX_CACHED_DOCUMENTS)) {
    if (!byName) {
      byName = new Map();
      snapshots.set(store, byName);
    }
    byName.set(name, { token, snap });
  } else byName?.delete(name);
  return snap;
}

/**
 * Replaces a document under compare-and-swap (concurrency rules 2-4): `If-Match` is required (428 without it),
 * `""` for an empty document, and a stale one is a conflict (412). The document must be within DOCUMENT_BOUNDS;
 * a coordination document (objectives, handoffs, approvals) is checked against its schema and stored with its
 * defaults filled in (its ETag is that of what is stored); any other document is stored as given.
 */
export async function replaceStateDocument(
  store: DocumentStore,
  name: string,
  value: unknown,
  ifMatch: string | undefined,
  now: Date = new Date(),
): Promise<string> {
  checkDocumentName(name);
  if (ifMatch === undefined)
    throw new PreconditionRequiredError(
      `replacing '${name}' needs If-Match: the ETag of the document as read, or "" when it is empty`,
      { header: 'If-Match', document: name, rule: 'if_match_required' },
    );
  if (!isObject(value))
    throw new ValidationError(`document '${name}' must be a JSON object`, {
      field: 'body',
      document: name,
      rule: 'json_object',
    });
  checkJsonBounds(value, DOCUMENT_BOUNDS, `document '${name}'`);
  return store.write(name, normalizeDocument(name, value, now), ifMatch.trim());
}

/** Names of the documents of a collection (`GET /v3/ops/state?collection=claims`). */
export async function listStateDocuments(
  store: DocumentStore,
  collection: unknown,
): Promise<{ documents: string[] }> {
  if (typeof collection !== 'string' || collection === '')
    throw new ValidationError('collection is required: the collection whose documents to list', {
      field: 'collection',
      rule: 'required',
    });
  checkCollectionName(collection);
  if (!store.list)
    throw new HubError('internal', `the ${store.backend} state backend cannot list documents`, {
      backend: store.backend,
    });
  return { documents: await store.list(collection) };
}

/**
 * Appends one item to the list under `key`, without compare-and-swap; returns the document's new ETag. An item
 * of a coordination document's list is checked and filled in as replaceStateDocument does. An event appended to
 * `coord.events` goes to the events log instead: the answer is its sequence and id (no document changed).
 */
export async function appendStateItem(
  store: DocumentStore,
  name: string,
  key: string,
  item: unknown,
  now: Date = new Date(),
): Promise<{ etag: string } | { seq: number | undefined; id: string | undefined }> {
  checkDocumentName(name);
  if (!LIST_KEY_RE.test(key))
    throw new ValidationError(`key: '${key}' is not a valid list key`, {
      field: 'key',
      value: key,
      rule: LIST_KEY_RE.source,
    });
  // The item lands two levels down (document, list): bounded so the document stays within DOCUMENT_BOUNDS.
  checkJsonBounds(item, APPEND_BOUNDS, `document '${name}'`, `${key}[]`);
  const normalized = normalizeAppended(name, key, item, now);
  // A recorded event gets the workspace's next sequence here, where the document lives (clients of the http
  // backend append through this route); a `seq` the client sent is replaced.
  if (name === DOCS.events && key === 'events' && isObject(normalized)) {
    const { seq: _ignored, ...event } = normalized;
    const out = await recordSequenced(store, event as Parameters<typeof recordSequenced>[1]);
    if (out.etag !== undefined) return { etag: out.etag };
    return { seq: out.seq, id: out.id };
  }
  return { etag: await store.append(name, key, normalized) };
}

/** Most events one read of the log returns (`GET /v3/ops/state/coord.events/events?limit=`). */
export const LOG_PAGE_MAX = 5000;

const intParam = (
  q: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
): number | undefined => {
  const raw = q[field];
  if (raw === undefined || raw === '') return undefined;
  const n = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new ValidationError(
      `${field}: '${String(raw).slice(0, 40)}' must be a whole number from ${min} to ${max}`,
      {
        field,
        value: String(raw).slice(0, 40),
        rule: 'integer_range',
      },
    );
  return n;
};

/**
 * The events log of the store, read by sequence (`GET /v3/ops/state/coord.events/events?after=&limit=`): how the
 * http backend reads its server's log, whether or not the server has a workspace loaded. Only reads.
 */
export async function readEventLog(
  store: DocumentStore,
  name: string,
  key: string,
  query: Record<string, unknown>,
): Promise<EventLogRead> {
  if (name !== DOCS.events || key !== 'events' || !store.events)
    throw new NotFoundError(
      `no readable list '${key}' of '${name}': only coord.events/events is (the events log)`,
      {
        field: 'key',
        value: `${name}/${key}`,
      },
    );
  const after = intParam(query, 'after', 0, Number.MAX_SAFE_INTEGER);
  const limit = intParam(query, 'limit', 1, LOG_PAGE_MAX) ?? LOG_PAGE_MAX;
  return store.events.read({ after, limit });
}
