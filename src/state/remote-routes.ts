import { ValidationError } from '../infra/index.js';

/**
 * The remote state contract: which HTTP routes of a hub server hold which store document. The http backend is a
 * client of these routes and the HTTP surface serves them, so both read this one table.
 */

/** A document with a whole-document route of its own (the spec's `/v3/ops/{objectives,approvals,handoffs}`). */
export interface SharedDocument {
  /** Store document name. */
  name: string;
  /** The key of its list (`{objectives:[...]}`); an empty document reads as `{[key]: []}`. */
  key: string;
  /** Route of GET (whole document, with ETag) and PUT (replace, If-Match required). */
  path: string;
  /** The query that asks GET for the whole document; any other query is a filtered list without ETag. */
  wholeQuery: Readonly<Record<string, string>>;
}

export const SHARED_DOCUMENTS: readonly SharedDocument[] = [
  { name: 'objectives', key: 'objectives', path: '/v3/ops/objectives', wholeQuery: {} },
  { name: 'approvals', key: 'requests', path: '/v3/ops/approvals', wholeQuery: { status: 'all' } },
  { name: 'handoffs', key: 'handoffs', path: '/v3/ops/handoffs', wholeQuery: {} },
];

/**
 * Every other document (coord.events, session, ACL collections) and every append go through the generic routes:
 * `GET|PUT {STATE_ROUTE}/{name}` and `POST {STATE_ROUTE}/{name}/{key}` (append one item to the list under key).
 */
export const STATE_ROUTE = '/v3/ops/state';

/**
 * Rule of store document names: a plain name (`objectives`, `coord.events`), or a document of a collection
 * (`claims/platform~identity`: the collection, then a key that may carry upper case and `~`). The local backend
 * keeps a collection's documents in a folder of their own (`.hub/claims/platform~identity.json`).
 */
export const DOCUMENT_NAME_RE = /^[a-z][a-z0-9_.-]{0,63}(?:\/[A-Za-z0-9][A-Za-z0-9_.~-]{0,199})?$/;
/** Rule of collection names (the part before `/`). */
export const COLLECTION_NAME_RE = /^[a-z][a-z0-9_.-]{0,63}$/;

/** The document `name` checked against the rule every backend shares. */
export function checkStoreDocumentName(name: string): string {
  if (!DOCUMENT_NAME_RE.test(name))
    throw new ValidationError(`invalid state document name '${name}'`, {
      field: 'name',
      value: name,
      rule: DOCUMENT_NAME_RE.source,
    });
  return name;
}

/** Checks a collection name against COLLECTION_NAME_RE (every backend's `list` does). */
export function checkCollectionName(collection: string): string {
  if (!COLLECTION_NAME_RE.test(collection))
    throw new ValidationError(`collection: '${collection}' is not a valid state collection name`, {
      field: 'collection',
      value: collection,
      rule: COLLECTION_NAME_RE.source,
    });
  return collection;
}

/** Splits a document name into its collection and key (`claims/a~b` -> `['claims', 'a~b']`). */
export function splitDocumentName(name: string): { collection?: string; key: string } {
  const slash = name.indexOf('/');
  return slash < 0 ? { key: name } : { collection: name.slice(0, slash), key: name.slice(slash + 1) };
}
/** Rule of list keys an append may target. */
export const LIST_KEY_RE = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export function sharedDocument(name: string): SharedDocument | undefined {
  return SHARED_DOCUMENTS.find((d) => d.name === name);
}
