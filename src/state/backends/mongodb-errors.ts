import { HubError, RefusedError, StateConflictError, ValidationError } from '../../infra/index.js';
import { redactUrlSecrets } from '../../model/index.js';
import { MONGODB_URL_VARIABLE, type MongoTarget } from './mongodb-config.js';

/** The privilege actions the mongodb backend uses at run time; docs/deploy.md lists the same. */
export const MONGODB_RUNTIME_ACTIONS = ['find', 'insert', 'update', 'listIndexes'];
/** What `hub state init` (and the first use, when allowed) needs besides: the collection and its index. */
export const MONGODB_INIT_ACTIONS = ['createCollection', 'createIndex', 'listCollections'];

/** MongoDB server error codes hub tells apart (src/mongo/base/error_codes.yml of the server). */
export const MONGO_CODES = {
  duplicateKey: 11000,
  unauthorized: 13,
  authenticationFailed: 18,
  namespaceNotFound: 26,
  bsonObjectTooLarge: 10334,
} as const;

const where = (t: Pick<MongoTarget, 'shownUrl' | 'database' | 'collection'>) =>
  `collection '${t.database}.${t.collection}' at ${t.shownUrl}`;

interface DriverError {
  name?: string;
  message?: string;
  code?: number | string;
  codeName?: string;
}

/**
 * A MongoDB driver error as hub's taxonomy, with a message that says how to fix it: a duplicate key (a first write
 * that lost the race) is a conflict; a denied action names the privileges; a failed login, an unreachable server
 * and a bad connection string name the setting. Driver messages can echo the connection string: redacted.
 */
export function mapMongoError(
  err: unknown,
  t: Pick<MongoTarget, 'shownUrl' | 'database' | 'collection'>,
  action: string,
  document?: string,
): HubError {
  if (err instanceof HubError) return err;
  const e = (err ?? {}) as DriverError;
  const name = e.name ?? '';
  const code = typeof e.code === 'number' ? e.code : undefined;
  const said = redactUrlSecrets(e.message ?? String(err));
  const details = {
    url: t.shownUrl,
    database: t.database,
    collection: t.collection,
    action,
    ...(document === undefined ? {} : { document }),
    mongo_error: e.codeName ?? name,
    ...(code === undefined ? {} : { mongo_code: code }),
  };
  if (code === MONGO_CODES.duplicateKey)
    return new StateConflictError(`document '${document}' changed since it was read (it exists already)`, {
      document,
    });
  if (code === MONGO_CODES.unauthorized)
    return new RefusedError(
      `MongoDB refused ${action} on ${where(t)}: the user lacks the privilege; grant ${MONGODB_RUNTIME_ACTIONS.join(', ')} on the collection, and run \`hub state init\` once as a user with ${MONGODB_INIT_ACTIONS.join(', ')} (docs/deploy.md)`,
      { ...details, rule: 'mongodb_permission' },
    );
  if (code === MONGO_CODES.authenticationFailed || name === 'MongoMissingCredentialsError')
    return new RefusedError(
      `MongoDB authentication failed at ${t.shownUrl}: check the user, password and authSource in the connection string (set it in ${MONGODB_URL_VARIABLE} rather than the config file)`,
      { ...details, rule: 'mongodb_authentication' },
    );
  if (code === MONGO_CODES.namespaceNotFound)
    return new RefusedError(
      `the MongoDB ${where(t)} does not exist; create it with \`hub state init\` (needs ${MONGODB_INIT_ACTIONS.join(', ')}), or set state.mongodb.collection to an existing one`,
      { ...details, rule: 'mongodb_collection_exists' },
    );
  if (code === MONGO_CODES.bsonObjectTooLarge)
    return new ValidationError(`state document '${document}' is over MongoDB's 16 MiB document limit`, {
      ...details,
      field: 'value',
      rule: 'mongodb_document_size',
    });
  if (name === 'MongoParseError' || name === 'MongoInvalidArgumentError' || name === 'MongoAPIError')
    return new ValidationError(
      `state.mongodb.url: '${t.shownUrl}' is not a usable connection string: ${said}`,
      {
        ...details,
        field: 'state.mongodb.url',
        value: t.shownUrl,
        rule: 'mongodb_url',
      },
    );
  if (
    name === 'MongoServerSelectionError' ||
    name === 'MongoNetworkError' ||
    name === 'MongoNetworkTimeoutError'
  )
    return new HubError(
      'internal',
      `cannot reach MongoDB at ${t.shownUrl} (${name}): check that the server runs and that state.mongodb.url (or ${MONGODB_URL_VARIABLE}) names it, with tls=true if the server requires TLS; it said: ${said}`,
      { ...details, rule: 'mongodb_reachable' },
    );
  return new HubError(
    'internal',
    `MongoDB ${action} on ${where(t)} failed: ${e.codeName ?? name}: ${said}`,
    details,
  );
}
