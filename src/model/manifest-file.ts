import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type * as z from 'zod';
import { NotFoundError, ValidationError } from '../infra/index.js';
import { findLegacyKeys, type LegacyRename } from './legacy.js';
import { MANIFEST_LIMITS, manifestLimitIssue } from './manifest-limits.js';
import { type Manifest, ManifestSchema } from './manifest-schema.js';
import {
  formatPath,
  parseYamlSource,
  positionOf,
  readUtf8File,
  type SourceIssue,
  type YamlSource,
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
  /** Present when the file was parsed in this process (absent on a cache hit); gives line numbers. */
  source?: YamlSource;
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
export function parseManifestText(text: string, path: string): ManifestFile {
  // The depends_on total is counted in the lexer pass too, so a dense graph is refused before it is parsed.
  const src = parseYamlSource(text, path, 'manifest', {
    keyedEntries: {
      depends_on: { total: MANIFEST_LIMITS.maxDependsOnTotal, rule: 'max_depends_on_total' },
    },
  });
  const data = yamlToJs(src, 'manifest') ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throwIssues(path, [
      { path: '(root)', line: 1, message: 'the manifest must be a YAML mapping', rule: 'schema.type' },
    ]);
  }
  // Before the schema and the catalog: what they cost grows with these counts.
  const over = manifestLimitIssue(data, src);
  if (over) throwIssues(path, [over]);
  const legacy = findLegacyKeys(data);
  const parsed = ManifestSchema.safeParse(data);
  if (!parsed.success) throwIssues(path, zodIssues(parsed.error, src));
  return { path, root: dirname(path), manifest: parsed.data, legacy, source: src };
}

/** Reads and parses a manifest file (no cache). */
export function readManifestFile(path: string): ManifestFile {
  return parseManifestText(readUtf8File(path, 'manifest'), path);
}
