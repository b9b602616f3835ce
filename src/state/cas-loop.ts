import { StateConflictError } from '../infra/index.js';
import { EMPTY_ETAG } from './etag.js';
import { checkStoreDocumentName } from './remote-routes.js';
import {
  appendItem,
  assertDocument,
  backoffMs,
  type DocumentStore,
  refuseDerivedEvents,
  type UpdateFn,
  type UpdateResult,
  type Versioned,
} from './store.js';

const timer = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** How a backend with conditional writes reads, encodes and writes one document for `casLoop`. */
export interface CasPort<E extends { etag: string }> {
  maxAttempts: number;
  read(name: string): Promise<{ value: unknown; etag: string } | undefined>;
  /** The stored form of `value`, with its ETag (computed once, reused by `write`). */
  encode(name: string, value: unknown): E;
  /** Conditional write on `ifMatch` (EMPTY_ETAG: must not exist); throws StateConflictError when it lost. */
  write(name: string, value: unknown, ifMatch: string, encoded: E): Promise<string>;
}

/**
 * Read, apply, conditional write; again after a jittered wait when another writer got in between, so writers on
 * many machines queue instead of failing. An unchanged document is not written.
 */
export async function casLoop<R, E extends { etag: string }>(
  port: CasPort<E>,
  name: string,
  step: (current: unknown) => Promise<{ value: unknown; result: R }>,
): Promise<{ value: unknown; result: R; etag: string }> {
  let last: unknown;
  for (let attempt = 0; attempt < port.maxAttempts; attempt++) {
    if (attempt > 0) await timer(backoffMs(Math.min(attempt, 6)));
    const cur = await port.read(name);
    const { value, result } = await step(cur?.value);
    assertDocument(name, value);
    const next = port.encode(name, value);
    if (cur && next.etag === cur.etag) return { value, result, etag: cur.etag };
    try {
      return { value, result, etag: await port.write(name, value, cur?.etag ?? EMPTY_ETAG, next) };
    } catch (err) {
      if (!(err instanceof StateConflictError)) throw err;
      last = err;
    }
  }
  throw last;
}

/**
 * `read`, `write`, `append` and `update` of a backend with conditional writes (DynamoDB, MongoDB), built once on
 * its CasPort: names checked, the derived events name refused and empty documents refused before any request.
 */
export function casDocuments<E extends { etag: string }>(
  port: CasPort<E>,
): Pick<DocumentStore, 'read' | 'write' | 'append'> & Required<Pick<DocumentStore, 'update'>> {
  const writable = (name: string) => {
    checkStoreDocumentName(name);
    refuseDerivedEvents(name);
  };
  return {
    async read<T>(name: string): Promise<Versioned<T>> {
      const got = await port.read(checkStoreDocumentName(name));
      return got ? { value: got.value as T, etag: got.etag } : { value: undefined, etag: undefined };
    },
    async write(name, value, ifMatch) {
      writable(name);
      assertDocument(name, value);
      return port.write(name, value, ifMatch, port.encode(name, value));
    },
    async append(name, key, item) {
      writable(name);
      const out = await casLoop(port, name, async (cur) => ({
        value: appendItem(name, cur, key, item),
        result: undefined,
      }));
      return out.etag;
    },
    async update<T, R>(name: string, fn: UpdateFn<T, R>): Promise<UpdateResult<T, R>> {
      writable(name);
      const out = await casLoop(port, name, async (cur) => fn(cur === undefined ? undefined : (cur as T)));
      return out as UpdateResult<T, R>;
    },
  };
}
