import { dirname } from 'node:path';
import { Checkouts } from '../catalog/index.js';
import { type LoadedAppConfig, loadAppConfig, locateManifest } from '../model/index.js';
import { type DocumentStore, describeStore, openStore, type StoreInfo } from '../state/index.js';
import type { OpContext, Workspace } from './context.js';
import { loadWorkspace } from './load-workspace.js';

export interface ContextInit {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  definition?: string;
  appconfig?: string;
  log?: (line: string) => void;
  readStdin?: () => Promise<string>;
  now?: () => Date;
  /** A store to use instead of the configured one (servers and tests share one). */
  store?: DocumentStore;
}

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
    env: init.env,
    definition: init.definition,
    appconfig: init.appconfig,
    agentMode: /^(1|true|yes)$/i.test(init.env.HUB_AGENT_MODE ?? ''),
    now: init.now ?? (() => new Date()),
    log: init.log ?? (() => {}),
    readStdin: init.readStdin,
    workspace() {
      ws ??= loadWorkspace({ cwd: init.cwd, definition: init.definition, env: init.env });
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
        opened = { store: init.store ?? openStore(info, this.appConfig().config.state), info };
      }
      return opened;
    },
    invalidate() {
      ws = undefined;
    },
  };
}
