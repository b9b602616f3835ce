import { HubError, ValidationError } from '../../infra/index.js';
import { canonicalJson, etagOf } from '../etag.js';
import { checkStoredSize } from '../store.js';

/**
 * One state document as a MongoDB record. The body is the document's canonical JSON text, not a BSON object:
 * JSON keys that BSON or MongoDB's update language treat specially (`$set`, `a.b`, `""`, `__proto__`), numbers
 * past 2^53 or -0, key order and nesting deeper than BSON's 100 levels all round-trip exactly, and the ETag is
 * the SHA-256 of that very text. Hub never queries inside a document, so nothing is lost by not mapping it.
 */
export interface MongoRecord {
  _id: MongoRecordId;
  /** Canonical JSON of the document. */
  body: string;
  /** `"` + SHA-256 hex of `body` + `"`: the compare-and-swap filter of every replace. */
  etag: string;
  updated_at: Date;
}

/** Keyed by org and workspace (as the earlier product keyed its records), then the store document name. */
export interface MongoRecordId {
  org_id: string;
  workspace_id: string;
  name: string;
}

/** MongoDB refuses a record larger than this (BSON document size limit, 16 MiB). */
export const MONGODB_MAX_RECORD_BYTES = 16 * 1024 * 1024;
/** Bytes of a record besides the strings it holds: field names, type tags, lengths, the date (a safe bound). */
const RECORD_OVERHEAD_BYTES = 256;

/** The record id of a document: the same three fields in the same order (MongoDB compares `_id` objects in order). */
export function recordId(orgId: string, workspaceId: string, name: string): MongoRecordId {
  return { org_id: orgId, workspace_id: workspaceId, name };
}

/**
 * The record of `value` with its ETag; refuses, before anything is sent, a document whose record would pass
 * MongoDB's 16 MiB limit (the server would refuse it with a less helpful error, after a round trip).
 */
export function encodeRecord(
  id: MongoRecordId,
  value: unknown,
  now: Date = new Date(),
): { record: MongoRecord; etag: string } {
  const body = canonicalJson(value);
  const bytes =
    Buffer.byteLength(body, 'utf8') +
    Buffer.byteLength(id.org_id, 'utf8') +
    Buffer.byteLength(id.workspace_id, 'utf8') +
    Buffer.byteLength(id.name, 'utf8') +
    RECORD_OVERHEAD_BYTES;
  if (bytes > MONGODB_MAX_RECORD_BYTES)
    throw new ValidationError(
      `state document '${id.name}' is ${bytes} bytes as a MongoDB record, over MongoDB's limit of ${MONGODB_MAX_RECORD_BYTES} bytes (16 MiB): nothing was written; remove old entries (for example finished handoffs) or use the local or dynamodb backend`,
      {
        document: id.name,
        field: 'value',
        value: bytes,
        limit: MONGODB_MAX_RECORD_BYTES,
        rule: 'mongodb_document_size',
      },
    );
  // Below MongoDB's own limit, the bound every backend keeps.
  checkStoredSize(id.name, body);
  const etag = etagOf(value)!;
  return { record: { _id: id, body, etag, updated_at: now }, etag };
}

/** The document and ETag of a record as read; a record that is not hub's is an error naming it. */
export function decodeRecord(name: string, record: unknown): { value: unknown; etag: string } {
  const r = record as Partial<MongoRecord> | null;
  if (!r || typeof r.body !== 'string' || typeof r.etag !== 'string')
    throw new HubError(
      'internal',
      `the MongoDB record of state document '${name}' has no 'body' text and 'etag': it was not written by hub; remove it or point state.mongodb.collection at hub's own collection`,
      { document: name, rule: 'mongodb_record_shape' },
    );
  let value: unknown;
  try {
    value = JSON.parse(r.body);
  } catch {
    throw new HubError(
      'internal',
      `the MongoDB record of state document '${name}' holds a body that is not JSON`,
      {
        document: name,
        rule: 'mongodb_record_json',
      },
    );
  }
  return { value, etag: r.etag };
}
