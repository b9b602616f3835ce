import { createRequire } from 'node:module';
import type * as Jsonc from 'jsonc-parser';

let lib: typeof Jsonc | undefined;

/**
 * jsonc-parser, loaded on first use through Node's own require: its main file is a UMD bundle that requires
 * `./impl/...` at run time, which bundlers (the CLI build, generate, the benches) cannot follow. Loaded this way
 * it stays out of every bundle, as `yaml` does (src/model/yaml-lib.ts).
 */
export function jsonc(): typeof Jsonc {
  lib ??= createRequire(import.meta.url)('jsonc-parser') as typeof Jsonc;
  return lib;
}
