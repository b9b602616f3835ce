import { StateConflictError } from '../../infra/index.js';
import { EMPTY_ETAG, etagOf } from '../etag.js';
import { appendItem, assertDocument, type DocumentStore, type Versioned } from '../store.js';

/** In-process store: documents live in a Map, copied on the way in and out. */
export function createMemoryStore(): DocumentStore {
  const docs = new Map<string, unknown>();
  return {
    backend: 'memory',
    async read<T>(name: string): Promise<Versioned<T>> {
      const v = docs.get(name);
      return { value: v === undefined ? undefined : (structuredClone(v) as T), etag: etagOf(v) };
    },
    async write(name, value, ifMatch) {
      assertDocument(name, value);
      const current = etagOf(docs.get(name)) ?? EMPTY_ETAG;
      if (ifMatch !== current)
        throw new StateConflictError(`document '${name}' changed (If-Match ${ifMatch}, now ${current})`, {
          document: name,
        });
      docs.set(name, structuredClone(value));
      return etagOf(value)!;
    },
    async append(name, key, item) {
      const next = appendItem(name, docs.get(name), key, structuredClone(item));
      docs.set(name, next);
      return etagOf(next)!;
    },
  };
}
