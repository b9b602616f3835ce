import { HubError, sha256Hex, ValidationError } from '../../infra/index.js';
import { canonicalJson } from '../etag.js';
import { checkStoredSize } from '../store.js';

/** node:zlib on first use: only DynamoDB items need it, and every command imports the state module. */
const zlib = () => process.getBuiltinModule('node:zlib');

/**
 * How a state document is laid out in its DynamoDB item. One table holds every org and workspace:
 * `pk = ORG#<org>#WS#<workspace>` (ids URI-encoded, so a `#` in an id cannot make two workspaces collide) and
 * `sk = DOC#<document name>` (`DOC#objectives`, `DOC#claims/platform~identity`), so `list(collection)` is one Query
 * on the workspace's partition with `begins_with(sk, 'DOC#<collection>/')`.
 *
 * The body is the canonical JSON of the document (its ETag is the SHA-256 of exactly these bytes): a plain string
 * attribute `body` when the item fits DynamoDB's 400 KB item limit, else gzip-compressed into the binary attribute
 * `gz`. A document whose compressed item is still over the limit is refused before anything is written.
 */

/** DynamoDB's item size limit: the UTF-8 lengths of every attribute name and value together. */
export const MAX_ITEM_BYTES = 400 * 1024;

/** A DynamoDB attribute value as the low-level client speaks it (only the types this layout uses). */
export type AttributeValue = { S: string } | { B: Uint8Array };
export type Item = Record<string, AttributeValue>;

export const PK = 'pk';
export const SK = 'sk';
export const DOC_PREFIX = 'DOC#';

export function partitionKey(orgId: string, workspaceId: string): string {
  return `ORG#${encodeURIComponent(orgId)}#WS#${encodeURIComponent(workspaceId)}`;
}

export const sortKey = (name: string): string => `${DOC_PREFIX}${name}`;

/** Bytes DynamoDB counts for an item (attribute names plus string/binary values). */
export function itemBytes(item: Item): number {
  let n = 0;
  for (const [name, v] of Object.entries(item)) {
    n += Buffer.byteLength(name, 'utf8');
    n += 'S' in v ? Buffer.byteLength(v.S, 'utf8') : v.B.byteLength;
  }
  return n;
}

export interface EncodedDocument {
  item: Item;
  etag: string;
  /** `body` (plain canonical JSON) or `gz` (compressed). */
  encoding: 'body' | 'gz';
}

/**
 * The item for `value`: plain when it fits, compressed when only that fits, refused (ValidationError naming the
 * sizes and the limit) when neither does.
 */
export function encodeDocument(pk: string, name: string, value: unknown): EncodedDocument {
  const text = canonicalJson(value);
  checkStoredSize(name, text);
  const etag = `"${sha256Hex(text)}"`;
  const keys: Item = { [PK]: { S: pk }, [SK]: { S: sortKey(name) }, etag: { S: etag } };
  const plain: Item = { ...keys, body: { S: text } };
  const plainBytes = itemBytes(plain);
  if (plainBytes <= MAX_ITEM_BYTES) return { item: plain, etag, encoding: 'body' };
  const packed: Item = { ...keys, gz: { B: zlib().gzipSync(text) } };
  const packedBytes = itemBytes(packed);
  if (packedBytes <= MAX_ITEM_BYTES) return { item: packed, etag, encoding: 'gz' };
  throw new ValidationError(
    `state document '${name}' is too large for the dynamodb backend: its item is ${plainBytes} bytes (${packedBytes} compressed), over DynamoDB's limit of ${MAX_ITEM_BYTES} bytes; archive part of it, or use the local or mongodb backend`,
    {
      document: name,
      field: 'value',
      value: packedBytes,
      limit: MAX_ITEM_BYTES,
      rule: 'dynamodb_item_size',
    },
  );
}

/** The document and its ETag from a stored item. */
export function decodeDocument(
  name: string,
  item: Record<string, unknown>,
): { value: unknown; etag: string } {
  const etag = (item.etag as { S?: string } | undefined)?.S;
  const body = (item.body as { S?: string } | undefined)?.S;
  const gz = (item.gz as { B?: Uint8Array } | undefined)?.B;
  const text = body ?? (gz ? zlib().gunzipSync(gz).toString('utf8') : undefined);
  if (text === undefined || etag === undefined)
    throw new HubError('internal', `state document '${name}' in DynamoDB has no body or no etag attribute`, {
      document: name,
      rule: 'dynamodb_item_layout',
    });
  try {
    return { value: JSON.parse(text), etag };
  } catch (err) {
    throw new HubError(
      'internal',
      `state document '${name}' in DynamoDB is not valid JSON (${(err as Error).message})`,
      { document: name, rule: 'dynamodb_item_json' },
    );
  }
}
