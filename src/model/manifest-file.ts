import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type * as z from 'zod';
import { NotFoundError, ValidationError } from '../infra/index.js';
import { findLegacyKeys, type LegacyRename } from './legacy.js';
import { parseManifestData } from './manifest-fast-schema.js';
import { manifestLimitIssue, manifestLimitsFor } from './manifest-limits.js';
import { type Manifest, manifestSchemas } from './manifest-schema.js';
import { DEFAULT_MANIFEST_MAX_BYTES, manifestByteLimit, manifestTooLarge } from './manifest-size.js';
import { schemaIssues } from './schema-issues.js';
import { readUtf8File } from './utf8-file.js';
import { fastYamlValue } from './yaml-fast.js';
import {
  formatPath,
  type PrecheckOptions,
  parseYamlSource,
  positionOf,
  type SourceIssue,
  type YamlSource,
  yamlLimitsFor,
  yamlToJs,
} from './yaml-source.js';

export const MANIFEST_FILENAME = '.hub.yml';

export interface ManifestFile {
  /** Absolute path of the manifest file. */
  path: string;
  /** Directory holding the manifest; repo paths are relative to it. */
  root: string;
  manifest: Manifest;
  legacy: LegacyRename[];
  /**
   * The `yaml` Document of the text read in this process (absent on a cache hit), for line numbers. After a fast
   * read it is parsed on first access, so a valid manifest never pays for it.
   */
  source?: YamlSource;
  /** The size limit the file was read under (edits write it back under the same limit). */
  maxBytes?: number;
}

export interface ManifestReadOptions {
  /**
   * The size limit in bytes the text is held to (its parse budgets grow with it); default 8 MiB. For a file, a
   * function of its size: asked only when the file is larger than the default (see manifestByteLimit).
   */
  maxBytes?: number;
  /** Parse with the `yaml` Document API only (an edit compares Documents); default: the fast reader first. */
  documentOnly?: boolean;
}

/** Finds the manifest: an explicit path, else `.hub.yml` in `cwd` or its nearest ancestor. */
export function locateManifest(cwd: string, explicit?: string): string {
  if (explicit) {
    const p = resolve(cwd, explicit);
    if (!existsSync(p))
      throw new NotFoundError(`manifest not found: ${p}`, { path: p, hint: 'run `hub init`' });
    return p;
  }
  let dir = resolve(cwd);
  for (;;) {
    const p = join(dir, MANIFEST_FILENAME);
    if (existsSync(p)) return p;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new NotFoundError(`no ${MANIFEST_FILENAME} in ${resolve(cwd)} or any parent directory`, {
    cwd: resolve(cwd),
    hint: 'run `hub init` to create one, or pass -c <path>',
  });
}

/**
 * The servers' `--root`: a directory (its `.hub.yml` is the manifest) or the manifest file itself.
 * Undefined when the path does not exist.
 */
export function definitionAt(root: string, cwd: string): { dir: string; manifest: string } | undefined {
  const abs = resolve(cwd, root);
  try {
    return statSync(abs).isDirectory()
      ? { dir: abs, manifest: join(abs, MANIFEST_FILENAME) }
      : { dir: dirname(abs), manifest: abs };
  } catch {
    return undefined;
  }
}

/** Maps zod issues to issues with YAML paths and line numbers. */
export function zodIssues(err: z.ZodError, src: YamlSource | undefined): SourceIssue[] {
  return err.issues.map((iss) => {
    const path = iss.path as Array<string | number>;
    const pos = src ? positionOf(src, path) : undefined;
    let message = iss.message;
    if (iss.code === 'unrecognized_keys')
      message = `unknown key(s) ${iss.keys.map((k) => `'${k}'`).join(', ')}`;
    return {
      path: formatPath(path),
      line: pos?.line,
      column: pos?.column,
      message,
      rule: `schema.${iss.code}`,
    };
  });
}

/** Throws one ValidationError that lists every issue, the first in the message. */
export function throwIssues(file: string, issues: SourceIssue[], what = 'manifest'): never {
  const first = issues[0]!;
  const where = first.line ? `line ${first.line}, ` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  throw new ValidationError(`${what} ${file}: ${where}${first.path}: ${first.message}${more}`, {
    file,
    issues,
  });
}

/** Parses and schema-checks manifest text; throws ValidationError with every issue and its line. */
export function parseManifestText(text: string, path: string, opts: ManifestReadOptions = {}): ManifestFile {
  const maxBytes = opts.maxBytes ?? DEFAULT_MANIFEST_MAX_BYTES;
  // The depends_on total is counted in the structural pass too, so a dense graph is refused before it is built.
  const limits = manifestLimitsFor(maxBytes);
  const precheck: PrecheckOptions = {
    limits: yamlLimitsFor(maxBytes),
    keyedEntries: { depends_on: { total: limits.maxDependsOnTotal, rule: 'max_depends_on_total' } },
  };
  if (!opts.documentOnly) {
    const fast = readFast(text, path, maxBytes, precheck);
    if (fast) return fast;
  }
  // The Document path: exact errors with lines (a manifest the fast reader did not vouch for lands here).
  const src = parseYamlSource(text, path, 'manifest', precheck);
  const data = yamlToJs(src, 'manifest') ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throwIssues(path, [
      { path: '(root)', line: 1, message: 'the manifest must be a YAML mapping', rule: 'schema.type' },
    ]);
  }
  // Before the schema and the catalog: what they cost grows with these counts.
  const over = manifestLimitIssue(data, src, limits);
  if (over) throwIssues(path, [over]);
  const legacy = findLegacyKeys(data);
  const parsed = manifestSchemas().ManifestSchema.safeParse(data);
  if (!parsed.success) throwIssues(path, schemaIssues(parsed.error, src, 'manifest', data));
  return { path, root: dirname(path), manifest: parsed.data, legacy, source: src, maxBytes };
}

/**
 * The fast read (js-yaml, no Document): the manifest when it parses, meets every limit and passes the schema;
 * undefined on anything else, so that the Document path reports it with lines. The Document is then parsed
 * only if a caller asks for `source` (a catalog rule that failed and wants its line).
 */
function readFast(
  text: string,
  path: string,
  maxBytes: number,
  precheck: PrecheckOptions,
): ManifestFile | undefined {
  const fast = fastYamlValue(text, precheck.limits!, precheck);
  if (!fast) return undefined;
  const data = fast.value ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) return undefined;
  if (manifestLimitIssue(data, undefined, manifestLimitsFor(maxBytes))) return undefined;
  const parsed = parseManifestData(data);
  if (!parsed.success) return undefined;
  const file: ManifestFile = {
    path,
    root: dirname(path),
    manifest: parsed.data,
    legacy: findLegacyKeys(data),
    maxBytes,
  };
  let source: YamlSource | undefined;
  let parsedSource = false;
  Object.defineProperty(file, 'source', {
    enumerable: false,
    configurable: true,
    get() {
      if (!parsedSource) {
        parsedSource = true;
        try {
          source = parseYamlSource(text, path, 'manifest', precheck);
        } catch {
          source = undefined;
        }
      }
      return source;
    },
  });
  return file;
}

/**
 * The manifest's text and the size limit it was read under: the default, or for a larger file the configured
 * limit (`configured` is asked only then). Edits parse and write under the same limit as reads.
 */
export function readManifestText(
  path: string,
  configured?: () => number,
): { text: string; maxBytes: number } {
  let limit = DEFAULT_MANIFEST_MAX_BYTES;
  const text = readUtf8File(path, 'manifest', {
    maxBytes: (size) => {
      limit = manifestByteLimit(size, configured);
      return limit;
    },
    tooLarge: manifestTooLarge,
  });
  return { text, maxBytes: limit };
}

/**
 * Reads and parses a manifest file (no cache). `configured` gives the configured size limit; it is asked only
 * for a file larger than the default.
 */
export function readManifestFile(path: string, configured?: () => number): ManifestFile {
  const { text, maxBytes } = readManifestText(path, configured);
  return parseManifestText(text, path, { maxBytes });
}
