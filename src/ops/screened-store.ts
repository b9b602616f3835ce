import { DOCUMENT_BOUNDS, findDepthViolation, jsonPath, shortPath } from '../infra/index.js';
import type { DocumentStore, UpdateFn } from '../state/index.js';

/** What was set aside in a record that nests deeper than a stored document may. */
export interface QuarantineNote {
  /** Where the bound was crossed, e.g. `handoffs[1].payload.a.a`. */
  field: string;
  rule: 'max_depth';
  /** MAX_DOCUMENT_DEPTH. */
  limit: number;
  /** Top-level fields of the record left out (`(record)` when the record itself is a list). */
  dropped: string[];
}

const DEPTH = DOCUMENT_BOUNDS.depth;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The record without its over-deep fields, carrying a `quarantined` note that names them. */
function quarantineRecord(record: object, note: Omit<QuarantineNote, 'dropped'>, depth: number): object {
  if (!isObject(record)) return { quarantined: { ...note, dropped: ['(record)'] } };
  const out: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [k, v] of Object.entries(record)) {
    if (findDepthViolation(v, depth - 1)) dropped.push(k);
    else out[k] = v;
  }
  out.quarantined = { ...note, dropped };
  return out;
}

/**
 * A stored document with every record (item of a top-level list) that nests deeper than MAX_DOCUMENT_DEPTH
 * quarantined: kept, minus its over-deep fields, with a `quarantined` note. Such a record can only come from an
 * older build or a hand edit; left as it is, it overflows the stack of every reader (structuredClone, zod,
 * JSON.stringify recurse) and blocks the other records. Returns the same value when nothing is over.
 */
export function screenDocument(value: unknown): { value: unknown; notes: QuarantineNote[] } {
  const notes: QuarantineNote[] = [];
  if (!isObject(value)) return { value, notes };
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    if (Array.isArray(v)) {
      let list: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        // A record sits two levels down: the document, then its list.
        const over = findDepthViolation(item, DEPTH - 2, jsonPath([k, i]));
        if (!over) continue;
        const note = { field: over.field, rule: 'max_depth' as const, limit: DEPTH };
        list ??= v.slice();
        const screened = quarantineRecord(item as object, note, DEPTH - 2);
        list[i] = screened;
        notes.push((screened as { quarantined: QuarantineNote }).quarantined);
      }
      if (list) {
        out ??= { ...value };
        out[k] = list;
      }
    } else {
      const over = findDepthViolation(v, DEPTH - 1, jsonPath([k]));
      if (!over) continue;
      out ??= { ...value };
      delete out[k];
      notes.push({ field: over.field, rule: 'max_depth', limit: DEPTH, dropped: [k] });
    }
  }
  return { value: out ?? value, notes };
}

/**
 * The store every operation uses: reads are screened (screenDocument) and each quarantined record is reported
 * once through `log`, naming the document and the field. The ETag stays the stored document's, so a write based on
 * the read replaces the poisoned record with its quarantined form. Writes and appends pass through unchanged:
 * they are bounded where they come in (invoke, state-documents).
 */
export function screenedStore(inner: DocumentStore, log: (line: string) => void): DocumentStore {
  const reported = new Set<string>();
  const screen = <T>(name: string, value: T, etag: string | undefined): T => {
    const { value: screened, notes } = screenDocument(value);
    for (const n of notes) {
      const key = `${name}\0${etag}\0${n.field}`;
      if (reported.has(key)) continue;
      if (reported.size < 1024) reported.add(key);
      log(
        `hub: state document '${name}': ${shortPath(n.field)} nests deeper than the limit of ${n.limit} levels (max_depth); the record is quarantined: served without ${n.dropped.join(', ')} until the next write of '${name}' stores it so`,
      );
    }
    return notes.length === 0 ? value : (screened as T);
  };
  // Every optional capability of the inner store is kept (atomic update, server routes, version tokens):
  // a wrapper that dropped one would silently change how writers are served.
  return {
    backend: inner.backend,
    async read<T>(name: string) {
      const got = await inner.read<T>(name);
      if (got.value === undefined) return got;
      return { value: screen(name, got.value, got.etag), etag: got.etag };
    },
    write: (name, value, ifMatch) => inner.write(name, value, ifMatch),
    append: (name, key, item) => inner.append(name, key, item),
    ...(inner.update
      ? {
          update: <T, R>(name: string, fn: UpdateFn<T, R>) =>
            inner.update!<T, R>(name, (cur) => fn(cur === undefined ? cur : screen(name, cur, undefined))),
        }
      : {}),
    ...(inner.callRoute
      ? { callRoute: (method: string, path: string, body: unknown) => inner.callRoute!(method, path, body) }
      : {}),
    // Events are bounded where they come in and when read back (the log's own reader).
    ...(inner.events ? { events: inner.events } : {}),
    ...(inner.list ? { list: (collection: string) => inner.list!(collection) } : {}),
    ...(inner.listAll ? { listAll: () => inner.listAll!() } : {}),
    ...(inner.init ? { init: () => inner.init!() } : {}),
    ...(inner.describe ? { describe: () => inner.describe!() } : {}),
    ...(inner.close ? { close: () => inner.close!() } : {}),
    ...(inner.version ? { version: (name: string) => inner.version!(name) } : {}),
  };
}
