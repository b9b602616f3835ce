export interface DemoRepoInfo {
  project: string;
  name: string;
  /** Checkout directory relative to the workspace root (cloned repos only). */
  path?: string;
  /** Clone URL (the url-only repo). */
  url?: string;
  cloned: boolean;
  commits: number;
}

export interface DemoResult {
  /** Absolute path of `<root>/.hub.yml`. */
  manifestPath: string;
  /** Real path of the workspace directory. */
  root: string;
  repos: DemoRepoInfo[];
}

export interface CreateDemoOptions {
  /** Replace a non-empty target (it is removed first). */
  force?: boolean;
  /** Receives one line per created item. */
  log?: (line: string) => void;
}

/** Creates the demo workspace; throws when `target` is non-empty and `force` is not set. */
export function createDemo(target: string, options?: CreateDemoOptions): DemoResult;
