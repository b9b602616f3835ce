export {
  createDynamoStore,
  DEFAULT_DYNAMODB_TABLE,
  type DynamoStoreOptions,
  dynamoItem,
  loadDynamoSdk,
} from './backends/dynamodb.js';
export { createHttpStore, type HttpStoreOptions, isRouteMissing, parseStateUrl } from './backends/http.js';
export {
  ACL_COLLECTIONS,
  createLocalStore,
  DERIVED_EVENTS_DOCUMENT,
  type LocalStoreOptions,
} from './backends/local.js';
export { createMemoryStore } from './backends/memory.js';
export {
  createMongoStore,
  loadMongoDriver,
  MONGODB_SCOPE_INDEX,
  type MongoDocumentStore,
  type MongoStoreOptions,
} from './backends/mongodb.js';
export {
  DEFAULT_MONGODB_COLLECTION,
  DEFAULT_MONGODB_DATABASE,
  MONGODB_URL_VARIABLE,
  type MongoTarget,
  resolveMongoTarget,
} from './backends/mongodb-config.js';
export { MONGODB_INIT_ACTIONS, MONGODB_RUNTIME_ACTIONS, mapMongoError } from './backends/mongodb-errors.js';
export { decodeRecord, encodeRecord, MONGODB_MAX_RECORD_BYTES, recordId } from './backends/mongodb-record.js';
export { canonicalJson, EMPTY_ETAG, etagOf } from './etag.js';
export {
  DEFAULT_EVENT_RETENTION,
  type EventLog,
  type EventLogRead,
  type EventLogReadOptions,
  type EventRetention,
  LEGACY_EVENTS_DOCUMENT,
  type LoggedEvent,
  legacyEvents,
  MAX_EVENT_BYTES,
  MIN_RETAINED_EVENTS,
} from './event-log.js';
export { acquireLock, type LockOptions } from './file-lock.js';
export { KNOWN_COLLECTIONS, KNOWN_PLAIN_DOCUMENTS } from './known-documents.js';
export { type MigrateOptions, type MigrateReport, migrateState, storedDocumentNames } from './migrate.js';
export { describeStore, openStore, type StoreInfo } from './open-store.js';
export {
  COLLECTION_NAME_RE,
  checkCollectionName,
  DOCUMENT_NAME_RE,
  LIST_KEY_RE,
  SHARED_DOCUMENTS,
  type SharedDocument,
  STATE_ROUTE,
  sharedDocument,
  splitDocumentName,
} from './remote-routes.js';
export {
  appendItem,
  backoffMs,
  type DocumentStore,
  type RouteAnswer,
  type StoreDescription,
  type StoreInit,
  type UpdateFn,
  type UpdateOptions,
  type UpdateResult,
  updateDocument,
  type Versioned,
} from './store.js';
