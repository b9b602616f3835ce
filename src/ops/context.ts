import type { Catalog, Checkouts } from '../catalog/index.js';
import type { LoadedAppConfig, ManifestFile } from '../model/index.js';
import type { DocumentStore, StoreInfo } from '../state/index.js';

/** A loaded, structurally valid workspace. */
export interface Workspace {
  file: ManifestFile;
  catalog: Catalog;
  /** True when the manifest was named explicitly (-c/--definition/--root): relative paths then start at its root. */
  explicitDefinition: boolean;
}

/** Progress of one long piece of work (sync, clone): a bar on a TTY, plain lines otherwise. */
export interface Progress {
  /** One unit done; `label` says which (a repository id and what happened to it). */
  tick(label: string): void;
  /** The work ended (also after a failure): a bar is cleared, nothing more is printed. */
  done(): void;
}

/** The surface a request came in on: page sizes default per surface (an agent's context is smaller than a terminal). */
export type Surface = 'cli' | 'mcp' | 'http';

/** Everything a handler may touch of the outside world; domain code never reads process.* itself. */
export interface OpContext {
  cwd: string;
  surface: Surface;
  env: Readonly<Record<string, string | undefined>>;
  /** Manifest path given with -c/--definition/--config-path, or --root of the servers. */
  definition?: string;
  /** hub.config.yaml path given with --appconfig. */
  appconfig?: string;
  agentMode: boolean;
  now(): Date;
  /** Diagnostics and progress; never data. */
  log(line: string): void;
  /** Starts reporting progress of `total` units; a no-op where nobody watches (MCP, HTTP). */
  progress(title: string, total: number): Progress;
  /** Reads all of standard input (CLI only); undefined on other surfaces. */
  readStdin?: () => Promise<string>;
  /** The workspace, loaded and checked once per context. */
  workspace(): Workspace;
  /** The application config (hub.config.yaml chain, defaults, HUB_* overrides), loaded once. */
  appConfig(): LoadedAppConfig;
  /** The coordination state store chosen by the application config, opened once. */
  store(): { store: DocumentStore; info: StoreInfo };
  /** Root of the workspace: the manifest's directory, else the working directory. */
  root(): string;
  /**
   * The judge of repository checkouts for this request: inside the manifest's folder on the real path, or in a
   * folder the user's own config allows (workspace.allowed_outside_paths, HUB_ALLOWED_OUTSIDE_PATHS).
   */
  checkouts(): Checkouts;
  /** Forgets the loaded workspace after a write, so the next read sees the new file. */
  invalidate(): void;
}
