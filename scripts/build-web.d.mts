// Types of scripts/build-web.mjs for the tests that import it.
export declare const WEB_BUILD_MODE: 'production';
export declare function webBuildUpToDate(
  prev: { hash?: string; mode?: string } | undefined,
  hash: string,
): boolean;
export declare function buildWeb(
  root: string,
  options?: { force?: boolean },
): Promise<{ hash: string; skipped: boolean }>;
