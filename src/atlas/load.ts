import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as z from 'zod';
import { HubError, sha256Hex, tryReadFileBounded } from '../infra/index.js';
import { fastYamlValue, parseYamlSource, yamlLimitsFor, yamlToJs } from '../model/index.js';
import { INDEX_FILE, kindPrefix, roleOf } from './layout.js';
import type { AtlasFile, Entity, Inventory, Manifests, Relation } from './schemas.js';

/** Most bytes of one file under `.atlas/` (a generated inventory of a very large repository stays below). */
export const MAX_ATLAS_FILE_BYTES = 16 * 1024 * 1024;
/** Most files under `.atlas/`; more is refused rather than read. */
export const MAX_ATLAS_FILES = 5_000;
/** Most folder levels under `.atlas/`. */
export const MAX_ATLAS_DEPTH = 8;

export interface AtlasIssue {
  severity: 'error' | 'warning';
  /** Path under `.atlas/`. */
  file: string;
  /** Where in the file (`entities[3].metadata.id`), when known. */
  at?: string;
  line?: number;
  rule: string;
  message: string;
}

export interface LoadedEntity {
  entity: Entity;
  file: string;
}

export interface LoadedAtlas {
  /** sha256 of every YAML file read, by path under `.atlas/`. */
  hashes: Record<string, string>;
  atlas?: AtlasFile;
  entities: Map<string, LoadedEntity>;
  relations: Array<Relation & { file: string }>;
  inventory?: Inventory;
  manifests?: Manifests;
  /** Parsed files that are neither entities nor relations (policy, overrides), by path. */
  other: Record<string, unknown>;
  issues: AtlasIssue[];
}

export interface AtlasListing {
  /** YAML files under `.atlas/` (POSIX relative paths), sorted. */
  files: string[];
  issues: AtlasIssue[];
}

/**
 * The files under `.atlas/`, walked without recursion and without following symbolic links: a link (to a file or
 * a folder, inside or out) is an error, as are more than MAX_ATLAS_FILES files or folders deeper than
 * MAX_ATLAS_DEPTH. The gitignored index and dotfiles are left out.
 */
export function listAtlas(dir: string): AtlasListing {
  const files: string[] = [];
  const issues: AtlasIssue[] = [];
  const stack: Array<{ rel: string; depth: number }> = [{ rel: '', depth: 0 }];
  let seen = 0;
  while (stack.length > 0) {
    const { rel, depth } = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch (err) {
      issues.push(issue(rel || '.', 'readable', `cannot be listed (${(err as NodeJS.ErrnoException).code})`));
      continue;
    }
    for (const e of entries) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (++seen > MAX_ATLAS_FILES) {
        issues.push(
          issue(p, 'max_files', `.atlas/ holds more than ${MAX_ATLAS_FILES} entries; the rest is not read`),
        );
        return { files: files.sort(), issues };
      }
      if (e.isSymbolicLink()) {
        issues.push(issue(p, 'no_symlink', 'is a symbolic link; atlas never follows links out of .atlas/'));
      } else if (e.isDirectory()) {
        if (p === 'index') continue;
        if (depth + 1 >= MAX_ATLAS_DEPTH)
          issues.push(issue(p, 'max_depth', `folders nest deeper than ${MAX_ATLAS_DEPTH} levels`));
        else stack.push({ rel: p, depth: depth + 1 });
      } else if (e.isFile()) {
        if (e.name.startsWith('.') || p === INDEX_FILE) continue;
        if (p.endsWith('.yaml') || p.endsWith('.yml')) files.push(p);
        else
          issues.push({
            ...issue(p, 'unknown_file', 'is not a YAML file of the atlas layout'),
            severity: 'warning',
          });
      } else {
        issues.push(issue(p, 'regular_file', 'is not a regular file'));
      }
    }
  }
  return { files: files.sort(), issues };
}

function issue(file: string, rule: string, message: string, extra: Partial<AtlasIssue> = {}): AtlasIssue {
  return { severity: 'error', file, rule, message, ...extra };
}

/** Reads one file under `.atlas/`, bounded and confined; its bytes or an issue. */
export function readAtlasFile(dir: string, rel: string): { bytes: Buffer } | { issue: AtlasIssue } {
  const r = tryReadFileBounded(join(dir, rel), {
    maxBytes: MAX_ATLAS_FILE_BYTES,
    root: dir,
    rootName: '.atlas/',
  });
  return r.ok ? { bytes: r.bytes } : { issue: issue(rel, r.rule, r.reason) };
}

/** Parses YAML text under the YAML bounds (depth, entries per list, aliases); the value or an issue. */
export function parseAtlasYaml(rel: string, text: string): { value: unknown } | { issue: AtlasIssue } {
  const limits = yamlLimitsFor(MAX_ATLAS_FILE_BYTES);
  // The fast reader vouches for plain files within the bounds; anything else takes the Document path, which
  // refuses what breaks a bound and names the line.
  const fast = fastYamlValue(text, limits);
  if (fast) return fast;
  try {
    const src = parseYamlSource(text, rel, 'atlas file', { limits });
    return { value: yamlToJs(src, 'atlas file') };
  } catch (err) {
    if (!(err instanceof HubError)) throw err;
    const d = (err.details ?? {}) as { rule?: unknown; line?: unknown };
    return {
      issue: issue(rel, typeof d.rule === 'string' ? d.rule : 'syntax', err.message, {
        ...(typeof d.line === 'number' ? { line: d.line } : {}),
      }),
    };
  }
}

/** zod issues as atlas issues naming the place in the file and the schema. */
function schemaIssues(rel: string, schemaFile: string, error: z.ZodError): AtlasIssue[] {
  return error.issues.slice(0, 20).map((i) => ({
    severity: 'error' as const,
    file: rel,
    at: i.path.map(String).join('.') || '(file)',
    rule: 'schema',
    message: `${i.path.map(String).join('.') || '(file)'}: ${i.message} (schemas/atlas/${schemaFile})`,
  }));
}

/**
 * Reads and checks every file of `.atlas/` at `dir`: layout, bounds, YAML, the JSON Schema of each file's role,
 * unique ids whose prefix is their kind, and relations between known entities. Never throws for what a file
 * holds: every problem is an issue.
 */
export function loadAtlas(
  dir: string,
  listing: AtlasListing = listAtlas(dir),
  opts: { relations?: boolean } = {},
): LoadedAtlas {
  const out: LoadedAtlas = {
    hashes: {},
    entities: new Map(),
    relations: [],
    other: {},
    issues: [...listing.issues],
  };
  for (const rel of listing.files) {
    const role = roleOf(rel);
    if (!role) {
      out.issues.push({
        ...issue(rel, 'unknown_file', 'is not a file of the atlas layout (see docs/atlas.md)'),
        severity: 'warning',
      });
      continue;
    }
    const read = readAtlasFile(dir, rel);
    if ('issue' in read) {
      out.issues.push(read.issue);
      continue;
    }
    out.hashes[rel] = sha256Hex(read.bytes);
    const parsed = parseAtlasYaml(rel, read.bytes.toString('utf8'));
    if ('issue' in parsed) {
      out.issues.push(parsed.issue);
      continue;
    }
    const checked = role.schema.safeParse(parsed.value ?? {});
    if (!checked.success) {
      out.issues.push(...schemaIssues(rel, role.schemaFile, checked.error));
      continue;
    }
    const value = checked.data as Record<string, unknown>;
    switch (role.holds) {
      case 'atlas':
        out.atlas = value as AtlasFile;
        break;
      case 'inventory':
        out.inventory = value as Inventory;
        break;
      case 'manifests':
        out.manifests = value as Manifests;
        break;
      case 'entities':
        addEntities(out, rel, value.entities as Entity[]);
        break;
      case 'mappings':
        for (const r of value.mappings as Relation[]) out.relations.push({ ...r, file: rel });
        break;
      case 'links':
        for (const r of value.links as Relation[]) out.relations.push({ ...r, file: rel });
        break;
      default:
        out.other[rel] = value;
    }
  }
  if (!out.atlas && !out.issues.some((i) => i.file === 'atlas.yaml'))
    out.issues.push(issue('atlas.yaml', 'required', 'is missing; `hub atlas init` writes it'));
  if (opts.relations !== false) checkReferences(out);
  return out;
}

/**
 * Applies the overrides and checks that every relation joins two known entities. Run once every entity is in
 * (generate adds the generated ones from memory first).
 */
export function checkReferences(out: LoadedAtlas): void {
  applyOverrides(out);
  for (const r of out.relations)
    for (const end of [r.from, r.to] as const)
      if (!out.entities.has(end))
        out.issues.push(
          issue(
            r.file,
            'dangling_reference',
            `relation ${r.from} ${r.relation} ${r.to}: no entity has the id ${end}`,
          ),
        );
}

function addEntities(out: LoadedAtlas, rel: string, entities: Entity[]): void {
  entities.forEach((e, i) => {
    const id = e.metadata.id;
    const prefix = id.slice(0, id.indexOf(':'));
    if (prefix !== kindPrefix(e.kind)) {
      out.issues.push(
        issue(
          rel,
          'id_kind',
          `entities[${i}]: id ${id} of kind ${e.kind} must start with ${kindPrefix(e.kind)}:`,
          {
            at: `entities.${i}.metadata.id`,
          },
        ),
      );
      return;
    }
    const before = out.entities.get(id);
    if (before) {
      out.issues.push(
        issue(rel, 'unique_id', `entities[${i}]: id ${id} is already used in ${before.file}`, {
          at: `entities.${i}.metadata.id`,
        }),
      );
      return;
    }
    out.entities.set(id, { entity: e, file: rel });
  });
}

/** Classification overrides and suppressions (which hide generated entities) from `overrides/`. */
function applyOverrides(out: LoadedAtlas): void {
  const cls = out.other['overrides/classifications.yaml'] as
    | { classifications: Array<{ id: string; classification: Entity['metadata']['classification'] }> }
    | undefined;
  for (const c of cls?.classifications ?? []) {
    const e = out.entities.get(c.id);
    if (e) e.entity = { ...e.entity, metadata: { ...e.entity.metadata, classification: c.classification } };
    else
      out.issues.push({
        ...issue('overrides/classifications.yaml', 'dangling_reference', `no entity has the id ${c.id}`),
        severity: 'warning',
      });
  }
  const sup = out.other['overrides/suppressions.yaml'] as { suppressions: Array<{ id: string }> } | undefined;
  for (const s of sup?.suppressions ?? []) {
    if (!out.entities.delete(s.id))
      out.issues.push({
        ...issue('overrides/suppressions.yaml', 'dangling_reference', `no entity has the id ${s.id}`),
        severity: 'warning',
      });
  }
}

/** Whether `dir` holds anything under `index/` that is not a regular file (checked before the index is read). */
export function isPlainFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/** sha256 of every layout file's bytes (what the index records), and the problems met reading them. */
export function currentHashes(
  dir: string,
  listing: AtlasListing,
): { hashes: Record<string, string>; issues: AtlasIssue[] } {
  const hashes: Record<string, string> = {};
  const issues = [...listing.issues];
  for (const rel of listing.files) {
    if (!roleOf(rel)) continue;
    const read = readAtlasFile(dir, rel);
    if ('issue' in read) issues.push(read.issue);
    else hashes[rel] = sha256Hex(read.bytes);
  }
  return { hashes, issues };
}
