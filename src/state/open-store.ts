import { join } from 'node:path';
import { RefusedError } from '../infra/index.js';
import { type AppConfig, redactUrlSecrets, stateBearerToken, stateDefaults } from '../model/index.js';
import { createDynamoStore, DEFAULT_DYNAMODB_TABLE } from './backends/dynamodb.js';
import { createHttpStore } from './backends/http.js';
import { createLocalStore } from './backends/local.js';
import { createMemoryStore } from './backends/memory.js';
import { createMongoStore } from './backends/mongodb.js';
import { mongoLocation, mongoShown, resolveMongoTarget } from './backends/mongodb-config.js';
import type { DocumentStore } from './store.js';

export interface StoreInfo {
  backend: AppConfig['state']['backend'];
  org_id: string;
  workspace_id: string;
  /** Where the documents live: the `.hub/` directory, or the server URL (credentials in it redacted: it is shown). */
  location: string;
  conflict_retries: number;
  /** The mongodb backend's settings as shown (URL credentials masked), or what is missing. */
  mongodb?: Record<string, string>;
}

/** Picks the backend from the (env-overridden) application config; ids default to `_` and a root hash. */
export function describeStore(config: AppConfig, root: string): StoreInfo {
  const d = stateDefaults(root);
  const s = config.state;
  return {
    backend: s.backend,
    org_id: s.org_id || d.org_id,
    workspace_id: s.workspace_id || d.workspace_id,
    location:
      s.backend === 'local'
        ? join(root, '.hub')
        : s.backend === 'memory'
          ? '(process memory)'
          : s.backend === 'dynamodb'
            ? `dynamodb table ${s.dynamodb?.table ?? DEFAULT_DYNAMODB_TABLE}`
            : s.backend === 'mongodb'
              ? mongoLocation(s.mongodb)
              : redactUrlSecrets(s.url ?? ''),
    conflict_retries: s.conflict_retries,
    ...(s.backend === 'mongodb' ? { mongodb: mongoShown(s.mongodb) } : {}),
  };
}

/**
 * Opens the backend `info` names. `state` (the application config's state section) carries what `info` must not
 * show: the bearer token of the http backend, and its timeout. `env` gives the dynamodb backend the standard
 * AWS settings (AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB...); its SDK is imported on first use, not here.
 */
export function openStore(
  info: StoreInfo,
  state?: AppConfig['state'],
  env: Readonly<Record<string, string | undefined>> = {},
): DocumentStore {
  const ev = state?.events;
  const retention = ev ? { count: ev.retain_count, days: ev.retain_days } : undefined;
  switch (info.backend) {
    case 'local':
      return createLocalStore({ dir: info.location, retention });
    case 'memory':
      return createMemoryStore({ retention });
    case 'http':
      return createHttpStore({
        url: state?.url ?? info.location,
        token: state ? stateBearerToken(state) : undefined,
        timeoutMs: state?.timeout_ms,
      });
    case 'dynamodb':
      return createDynamoStore({
        table: state?.dynamodb?.table,
        region: state?.dynamodb?.region,
        endpoint: state?.dynamodb?.endpoint,
        orgId: info.org_id,
        workspaceId: info.workspace_id,
        timeoutMs: state?.timeout_ms,
        env,
        retention,
      });
    case 'mongodb':
      return createMongoStore({
        target: resolveMongoTarget(state?.mongodb),
        orgId: info.org_id,
        workspaceId: info.workspace_id,
        timeoutMs: state?.timeout_ms,
        retention,
      });
    default:
      throw new RefusedError(
        `state backend '${info.backend}' is not available in this build; use local, http, dynamodb, mongodb or memory`,
        {
          backend: info.backend,
          rule: 'backend_available',
        },
      );
  }
}
