import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let lib: typeof Yaml | undefined;

/**
 * The `yaml` package, loaded on first use and kept out of the CLI bundle: a command that reads a cached
 * manifest never pays for it; parsing and comment-keeping writes load it when they run.
 */
export function yaml(): typeof Yaml {
  lib ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return lib;
}
