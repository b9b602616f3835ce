import { StateConflictError } from '../../infra/index.js';
import { EMPTY_ETAG, etagOf } from '../etag.js';
import { checkCollectionName, checkStoreDocumentName } from '../remote-routes.js';
import {
  appendItem,
  assertDocument,
  checkStoredSize,
  type DocumentStore,
  type UpdateFn,
  type UpdateResult,
  type Versioned,
} from '../store.js';

/** Refuses a value that would be too large stored (checkStoredSize), as every other backend does. */
const checkSize = (name: string, value: unknown) => checkStoredSize(name, JSON.stringify(value));

/** In-process store: documents live in a Map, copied on the way in and out. */
export function createMemoryStore(): DocumentStore {
  const docs = new Map<string, unknown>();
  // Updates of one document run one after another: `fn` may await, and a second update must see the first's value.
  const queues = new Map<string, Promise<unknown>>();
  return {
    backend: 'memory',
    async list(collection) {
      const prefix = `${checkCollectionName(collection)}/`;
      return [...docs.keys()].filter((n) => n.startsWith(prefix)).sort();
    },
    async read<T>(name: string): Promise<Versioned<T>> {
      const v = docs.get(checkStoreDocumentName(name));
      return { value: v === undefined ? undefined : (structuredClone(v) as T), etag: etagOf(v) };
    },
    async write(name, value, ifMatch) {
      checkStoreDocumentName(name);
      assertDocument(name, value);
      const current = etagOf(docs.get(name)) ?? EMPTY_ETAG;
      if (ifMatch !== current)
        throw new StateConflictError(`document '${name}' changed (If-Match ${ifMatch}, now ${current})`, {
          document: name,
        });
      checkSize(name, value);
      docs.set(name, structuredClone(value));
      return etagOf(value)!;
    },
    async update<T, R>(name: string, fn: UpdateFn<T, R>): Promise<UpdateResult<T, R>> {
      checkStoreDocumentName(name);
      const run = async (): Promise<UpdateResult<T, R>> => {
        for (;;) {
          const cur = docs.get(name);
          const { value, result } = await fn(cur === undefined ? undefined : (structuredClone(cur) as T));
          assertDocument(name, value);
          // A plain write or append may land while an async `fn` waits: apply `fn` again to what it left.
          if (docs.get(name) !== cur) continue;
          checkSize(name, value);
          docs.set(name, structuredClone(value));
          return { result, etag: etagOf(value)!, value };
        }
      };
      const prev = queues.get(name) ?? Promise.resolve();
      const next = prev.then(run, run);
      const tail = next.catch(() => undefined);
      queues.set(name, tail);
      try {
        return await next;
      } finally {
        if (queues.get(name) === tail) queues.delete(name);
      }
    },
    async append(name, key, item) {
      checkStoreDocumentName(name);
      const next = appendItem(name, docs.get(name), key, structuredClone(item));
      checkSize(name, next);
      docs.set(name, next);
      return etagOf(next)!;
    },
  };
}
