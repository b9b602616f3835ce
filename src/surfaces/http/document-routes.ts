import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../infra/index.js';
import {
  appendStateItem,
  asksWholeDocument,
  cachedStateDocument,
  type DocumentSnapshot,
  listStateDocuments,
  readEventLog,
  readStateDocument,
  replaceStateDocument,
  SHARED_DOCUMENTS,
  STATE_ROUTE,
  viewedSnapshot,
} from '../../ops/index.js';
import type { DocumentStore } from '../../state/index.js';
import { type RouteHandler, routeKey } from './routes-from-registry.js';

export interface DocumentRouteOptions {
  store: DocumentStore;
  /** The operation bound to a GET route that a filtered query (not the whole document) falls back to. */
  fallback: (key: string) => RouteHandler | undefined;
  /** Body limit of PUT and append (documents may be larger than operation inputs). */
  bodyLimit: number;
}

/** `METHOD route` of every route this module serves, so the registry router leaves them to it. */
export function documentRouteKeys(): Set<string> {
  return new Set(SHARED_DOCUMENTS.flatMap((d) => [routeKey('GET', d.path), routeKey('PUT', d.path)]));
}

function ifMatchOf(req: FastifyRequest): string | undefined {
  const v = req.headers['if-match'];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Sends a document; `viewed` (a listing's view, not the stored bytes under that ETag) never answers 304. */
function sendSnapshot(
  req: FastifyRequest,
  reply: FastifyReply,
  snap: DocumentSnapshot,
  viewed = false,
): void {
  if (snap.etag !== undefined) {
    reply.header('etag', snap.etag);
    if (!viewed && req.headers['if-none-match'] === snap.etag) {
      reply.code(304).send();
      return;
    }
  }
  reply.type('application/json; charset=utf-8').send(snap.bytes);
}

function sendWritten(reply: FastifyReply, result: Record<string, unknown> & { etag?: string }): void {
  if (result.etag !== undefined) reply.header('etag', result.etag);
  reply.type('application/json').send(JSON.stringify({ ok: true, ...result }));
}

/**
 * The whole-document state routes with the spec's concurrency rules: GET answers the stored document with its
 * ETag (none for an empty document) when the query asks for the whole document, else the list operation of that
 * route; PUT replaces it and requires If-Match (428 without, 412 when stale). The generic routes under
 * STATE_ROUTE do the same for every other document, plus append (no compare-and-swap) for the http backend.
 */
export function registerDocumentRoutes(app: FastifyInstance, opts: DocumentRouteOptions): void {
  const { store } = opts;
  for (const doc of SHARED_DOCUMENTS) {
    const fallback = opts.fallback(routeKey('GET', doc.path));
    // Not async: an unchanged document is answered from the snapshot cache without a promise in between.
    app.get(doc.path, (req, reply) => {
      if (!asksWholeDocument(doc, (req.query ?? {}) as Record<string, unknown>)) {
        if (fallback) return fallback(req, reply);
        throw new ValidationError(`${doc.path} takes no query besides ${JSON.stringify(doc.wholeQuery)}`, {
          field: 'query',
          rule: 'whole_document',
        });
      }
      // Served as every listing shows it (expired handoff claims released), under the stored ETag.
      const send = (stored: DocumentSnapshot) => {
        const { snap, viewed } = viewedSnapshot(doc.name, stored);
        sendSnapshot(req, reply, snap, viewed);
        return reply;
      };
      const cached = cachedStateDocument(store, doc.name);
      if (cached) return send(cached);
      return readStateDocument(store, doc.name).then(send);
    });
    app.put(doc.path, { bodyLimit: opts.bodyLimit }, async (req, reply) => {
      const etag = await replaceStateDocument(store, doc.name, req.body, ifMatchOf(req));
      sendWritten(reply, { document: doc.name, etag });
      return reply;
    });
  }

  type NameParams = { Params: { name: string } };
  type KeyParams = { Params: { name: string; key: string } };
  app.get<{ Querystring: { collection?: string } }>(STATE_ROUTE, async (req, reply) => {
    // Every async handler returns the reply: resolving before an asynchronous onSend hook (compression) ends
    // would send the answer empty.
    return reply
      .type('application/json')
      .send(JSON.stringify(await listStateDocuments(store, req.query?.collection)));
  });
  app.get<NameParams>(`${STATE_ROUTE}/:name`, async (req, reply) => {
    sendSnapshot(req, reply, await readStateDocument(store, req.params.name));
    return reply;
  });
  app.put<NameParams>(`${STATE_ROUTE}/:name`, { bodyLimit: opts.bodyLimit }, async (req, reply) => {
    const etag = await replaceStateDocument(store, req.params.name, req.body, ifMatchOf(req));
    sendWritten(reply, { document: req.params.name, etag });
    return reply;
  });
  app.get<KeyParams>(`${STATE_ROUTE}/:name/:key`, async (req, reply) => {
    const { name, key } = req.params;
    const read = await readEventLog(store, name, key, (req.query ?? {}) as Record<string, unknown>);
    return reply.type('application/json').send(JSON.stringify(read));
  });
  app.post<KeyParams>(`${STATE_ROUTE}/:name/:key`, { bodyLimit: opts.bodyLimit }, async (req, reply) => {
    const { name, key } = req.params;
    if (req.body === undefined)
      throw new ValidationError('append needs a JSON body: the item to append', {
        field: 'body',
        rule: 'required',
      });
    // A document's new ETag; for an event of the feed, its sequence and id in the events log.
    sendWritten(reply, { document: name, key, ...(await appendStateItem(store, name, key, req.body)) });
    return reply;
  });
}
