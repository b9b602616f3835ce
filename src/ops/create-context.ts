import { dirname } from 'node:path';
import { Checkouts } from '../catalog/index.js';
import {
  type AppConfig,
  type LoadedAppConfig,
  loadAppConfig,
  locateManifest,
  stateBearerToken,
  stateTokenExposure,
} from '../model/index.js';
import { type DocumentStore, describeStore, openStore, type StoreInfo } from '../state/index.js';
import type { OpContext, Progress, Surface, Workspace } from './context.js';
import { loadWorkspace } from './load-workspace.js';
import { screenedStore } from './screened-store.js';

export interface ContextInit {
  cwd: string;
  /** Where the request came from (default `cli`); list page sizes default per surface. */
  surface?: Surface;
  env: Readonly<Record<string, string | undefined>>;
  definition?: string;
  appconfig?: string;
  log?: (line: string) => void;
  /** Progress reporting (the CLI's bar or lines); none by default. */
  progress?: (title: string, total: number) => Progress;
  readStdin?: () => Promise<string>;
  now?: () => Date;
  /** A store to use instead of the configured one (servers and tests share one). */
  store?: DocumentStore;
  /**
   * Stores kept open across the contexts of one long-lived server (MCP): each context still reads the
   * application config anew, and reuses the store it names, so a memory store lives as long as the server.
   */
  stores?: StorePool;
}

/** Open stores by what opened them (backend, location, credentials, timeout). */
export type StorePool = Map<string, DocumentStore>;

/** A store pool for one server process; a handful of configurations at most, so it stays small. */
export function createStorePool(): StorePool {
  return new Map();
}

const MAX_POOLED_STORES = 8;

function pooledStore(
  pool: StorePool,
  info: StoreInfo,
  state: AppConfig['state'],
  open: () => DocumentStore,
): DocumentStore {
  // The ids are part of the key: a dynamodb (or mongodb) store is one partition of a shared table.
  const key = JSON.stringify([
    info.backend,
    info.location,
    info.org_id,
    info.workspace_id,
    state.dynamodb ?? null,
    stateBearerToken(state) ?? '',
    state.timeout_ms,
  ]);
  let store = pool.get(key);
  if (!store) {
    store = open();
    if (pool.size >= MAX_POOLED_STORES) pool.clear();
    pool.set(key, store);
  }
  return store;
}

const NO_PROGRESS: Progress = { tick: () => {}, done: () => {} };

/** Builds the context every surface hands to operations. */
export function createContext(init: ContextInit): OpContext {
  let ws: Workspace | undefined;
  let app: LoadedAppConfig | undefined;
  let opened: { store: DocumentStore; info: StoreInfo } | undefined;
  let checkouts: Checkouts | undefined;
  const manifestRoot = (): string | undefined => {
    try {
      return dirname(locateManifest(init.cwd, init.definition));
    } catch {
      return undefined;
    }
  };
  return {
    cwd: init.cwd,
    surface: init.surface ?? 'cli',
    env: init.env,
    definition: init.definition,
    appconfig: init.appconfig,
    agentMode: /^(1|true|yes)$/i.test(init.env.HUB_AGENT_MODE ?? ''),
    now: init.now ?? (() => new Date()),
    log: init.log ?? (() => {}),
    progress: init.progress ?? (() => NO_PROGRESS),
    readStdin: init.readStdin,
    workspace() {
      ws ??= loadWorkspace({
        cwd: init.cwd,
        definition: init.definition,
        env: init.env,
        manifestMaxBytes: () => this.appConfig().config.workspace.manifest_max_bytes,
      });
      return ws;
    },
    appConfig() {
      app ??= loadAppConfig({
        cwd: init.cwd,
        manifestRoot: manifestRoot(),
        explicit: init.appconfig,
        env: init.env,
      });
      return app;
    },
    root() {
      return manifestRoot() ?? init.cwd;
    },
    checkouts() {
      // The allowed folders come from the loaded config, whose trusted-only keys never come from the workspace.
      checkouts ??= new Checkouts(this.root(), () => this.appConfig().config.workspace.allowed_outside_paths);
      return checkouts;
    },
    store() {
      if (!opened) {
        const info = describeStore(this.appConfig().config, this.root());
        const state = this.appConfig().config.state;
        // Before anything is sent: the user's token never goes to a server only the workspace config names.
        const exposure = stateTokenExposure(this.appConfig());
        if (exposure) throw exposure;
        // Screened: a record poisoned on disk (by an older build) is quarantined on read, never a stack overflow.
        const open = () => screenedStore(openStore(info, state, init.env), this.log);
        const store = init.store ?? (init.stores ? pooledStore(init.stores, info, state, open) : open());
        opened = { store, info };
      }
      return opened;
    },
    invalidate() {
      ws = undefined;
    },
  };
}
