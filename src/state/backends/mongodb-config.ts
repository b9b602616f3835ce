import { ValidationError } from '../../infra/index.js';
import { redactUrlSecrets } from '../../model/index.js';

/** Collection of the state records when `state.mongodb.collection` is not set (the earlier product's name). */
export const DEFAULT_MONGODB_COLLECTION = 'hub_state';
/** Database when neither `state.mongodb.database` nor the URL's path names one. */
export const DEFAULT_MONGODB_DATABASE = 'hub';
/** The variable that carries the connection string (with its credentials) instead of the config file. */
export const MONGODB_URL_VARIABLE = 'HUB_STATE_MONGODB_URL';

/** Names hub accepts: a subset of MongoDB's rules that works on every server and platform (no dots, no spaces). */
const DATABASE_RE = /^[A-Za-z0-9_-]{1,63}$/;
const COLLECTION_RE = /^(?!system\.)[A-Za-z_][A-Za-z0-9_.-]{0,119}$/;

/** The settings of the mongodb backend, resolved; `url` holds credentials and is never shown (`shownUrl` is). */
export interface MongoTarget {
  url: string;
  /** `url` with its password (and secret query parameters) masked: what messages and `state info` show. */
  shownUrl: string;
  database: string;
  collection: string;
}

/** `state.mongodb` as the config schema has it. */
export interface MongoSettings {
  url?: string;
  database?: string;
  collection?: string;
}

/** The database named by the URL's path (`mongodb://h/db?x` -> `db`), if any. */
function databaseOfUrl(url: string): string | undefined {
  const m = /^mongodb(?:\+srv)?:\/\/[^/?#]*\/([^?#]*)/i.exec(url);
  if (!m || m[1] === '') return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1];
  }
}

/**
 * Resolves and checks the settings: the URL from `state.mongodb.url` (env HUB_STATE_MONGODB_URL overrides it),
 * the database from `state.mongodb.database`, else the URL's path, else `hub`; the collection from
 * `state.mongodb.collection`, else `hub_state`. Errors name the setting, the (redacted) value and the rule.
 */
export function resolveMongoTarget(settings: MongoSettings | undefined): MongoTarget {
  const url = settings?.url ?? '';
  if (url === '')
    throw new ValidationError(
      `state.mongodb.url is required by the mongodb state backend: set it, or the environment variable ${MONGODB_URL_VARIABLE} (keeps the credentials out of the config file)`,
      { field: 'state.mongodb.url', rule: 'required' },
    );
  const shownUrl = redactUrlSecrets(url);
  if (!/^mongodb(?:\+srv)?:\/\/[^/?#\s]+/i.test(url))
    throw new ValidationError(
      `state.mongodb.url: '${shownUrl}' is not a MongoDB connection string (mongodb://host[:port][/database] or mongodb+srv://host)`,
      { field: 'state.mongodb.url', value: shownUrl, rule: 'mongodb_url' },
    );
  const database = settings?.database ?? databaseOfUrl(url) ?? DEFAULT_MONGODB_DATABASE;
  if (!DATABASE_RE.test(database))
    throw new ValidationError(
      `state.mongodb.database: '${database}' is not a usable database name (1-63 letters, digits, _ or -)`,
      { field: 'state.mongodb.database', value: database, rule: DATABASE_RE.source },
    );
  const collection = settings?.collection ?? DEFAULT_MONGODB_COLLECTION;
  if (!COLLECTION_RE.test(collection))
    throw new ValidationError(
      `state.mongodb.collection: '${collection}' is not a usable collection name (a letter or _ first, then letters, digits, _ . -; not system.*)`,
      { field: 'state.mongodb.collection', value: collection, rule: COLLECTION_RE.source },
    );
  return { url, shownUrl, database, collection };
}

/** Where the documents live, as shown (`mongodb://h/ db.collection`), credentials masked. */
export function describeMongoLocation(t: Pick<MongoTarget, 'shownUrl' | 'database' | 'collection'>): string {
  return `${t.shownUrl} (${t.database}.${t.collection})`;
}

/** `describeMongoLocation` of the settings, or what is missing: never throws (`state info` shows it as is). */
export function mongoLocation(settings: MongoSettings | undefined): string {
  try {
    return describeMongoLocation(resolveMongoTarget(settings));
  } catch (err) {
    return `(not usable: ${(err as Error).message})`;
  }
}

/** The settings as `state info` and `hub://gate/status` show them: URL masked, database, collection. */
export function mongoShown(settings: MongoSettings | undefined): Record<string, string> {
  try {
    const t = resolveMongoTarget(settings);
    return { url: t.shownUrl, database: t.database, collection: t.collection };
  } catch (err) {
    return { error: (err as Error).message };
  }
}
