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

/** Rule of store document names (also what the local backend accepts as a file name). */
export const DOCUMENT_NAME_RE = /^[a-z][a-z0-9_.-]*$/;
/** Rule of list keys an append may target. */
export const LIST_KEY_RE = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export function sharedDocument(name: string): SharedDocument | undefined {
  return SHARED_DOCUMENTS.find((d) => d.name === name);
}
