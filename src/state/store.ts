import { StateConflictError } from '../infra/index.js';

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
  /** Appends an item to the list under `key` without compare-and-swap (handoff create). */
  append(name: string, key: string, item: unknown): Promise<string>;
  close?(): Promise<void>;
}

export interface UpdateOptions {
  /** Reload-and-reapply attempts after the first conflict (state.conflict_retries, default 1). */
  retries: number;
}

/**
 * Read-modify-write with compare-and-swap: applies `fn` to the current document and writes it with If-Match;
 * on a conflict reloads and reapplies, up to `retries` times, then throws StateConflictError.
 * `fn` must be pure: it may run more than once.
 */
export async function updateDocument<T, R = void>(
  store: DocumentStore,
  name: string,
  fn: (current: T | undefined) => { value: T; result: R } | Promise<{ value: T; result: R }>,
  opts: UpdateOptions,
): Promise<{ result: R; etag: string; value: T }> {
  let lastErr: unknown;
  for (let attempt = 0; attempt <= opts.retries; attempt++) {
    const cur = await store.read<T>(name);
    const clone = cur.value === undefined ? undefined : (structuredClone(cur.value) as T);
    const { value, result } = await fn(clone);
    try {
      const etag = await store.write(name, value, cur.etag ?? '""');
      return { result, etag, value };
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
