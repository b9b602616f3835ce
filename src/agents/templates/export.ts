import { lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { RefusedError, sha256Hex, tryReadFileBounded, writeFileUnder } from '../../infra/index.js';
import { isPlainObject } from './merge.js';
import type { RenderedTemplate } from './render.js';
import type { ResolvedTemplate } from './resolve.js';
import { TEMPLATE_LIMITS } from './schema.js';

export const EXPORT_MANIFEST = 'manifest.json';
export const EXPORT_FRAGMENT = 'AGENTS.md.fragment';
const GENERATOR = 'hub agent export';

export type WriteAction = 'create' | 'unchanged' | 'update' | 'conflict';

export interface ExportFile {
  name: string;
  action: WriteAction;
  sha256: string;
  /** Why a file is a conflict (changed since hub wrote it, not written by hub, not a regular file). */
  reason?: string;
  /** Not a regular file inside the output folder: refused even with --force. */
  blocked?: boolean;
}

export interface ExportResult {
  template_id: string;
  vendor: string | null;
  source: string;
  dir: string;
  dry_run: boolean;
  files: ExportFile[];
  /** Names of the files written (none on a dry run, or when every file was unchanged). */
  written: string[];
}

type Existing = { kind: 'absent' } | { kind: 'file'; text: string } | { kind: 'other'; reason: string };

function readExisting(dir: string, name: string): Existing {
  const path = join(dir, name);
  try {
    lstatSync(path);
  } catch {
    return { kind: 'absent' };
  }
  const r = tryReadFileBounded(path, {
    maxBytes: TEMPLATE_LIMITS.renderedBytes * 2,
    root: dir,
    rootName: 'the output folder',
  });
  return r.ok ? { kind: 'file', text: r.bytes.toString('utf8') } : { kind: 'other', reason: r.reason };
}

/** The hashes a previous export recorded, when manifest.json is one hub wrote. */
function recordedHashes(dir: string): Map<string, string> | undefined {
  const prev = readExisting(dir, EXPORT_MANIFEST);
  if (prev.kind !== 'file') return undefined;
  try {
    const data = JSON.parse(prev.text) as unknown;
    if (!isPlainObject(data) || data.generator !== GENERATOR || !Array.isArray(data.files)) return undefined;
    const out = new Map<string, string>();
    for (const f of data.files)
      if (isPlainObject(f) && typeof f.path === 'string' && typeof f.sha256 === 'string')
        out.set(f.path, f.sha256);
    return out;
  } catch {
    return undefined;
  }
}

function plan(
  name: string,
  text: string,
  dir: string,
  recorded: Map<string, string> | undefined,
): ExportFile {
  const sha256 = sha256Hex(text);
  const existing = readExisting(dir, name);
  if (existing.kind === 'absent') return { name, action: 'create', sha256 };
  if (existing.kind === 'other')
    return { name, action: 'conflict', sha256, reason: existing.reason, blocked: true };
  if (existing.text === text) return { name, action: 'unchanged', sha256 };
  // manifest.json is hub's own record: replaced whenever it is one hub wrote.
  const ours =
    name === EXPORT_MANIFEST ? recorded !== undefined : recorded?.get(name) === sha256Hex(existing.text);
  if (ours) return { name, action: 'update', sha256 };
  return {
    name,
    action: 'conflict',
    sha256,
    reason: recorded?.has(name) ? 'changed since hub wrote it' : 'not written by hub agent export',
  };
}

/**
 * Writes an export: `<id>.md` (front-matter and body), `AGENTS.md.fragment` when the template has one, and
 * `manifest.json` (template, source, vendor, answers, each file's sha256). Identical files are left alone; a file
 * hub wrote and nobody changed since is replaced; any other existing file is a conflict, and one conflict refuses
 * the whole export (nothing written) unless `force`. Each file is written atomically.
 */
export function exportTemplate(
  t: ResolvedTemplate,
  r: RenderedTemplate,
  dir: string,
  opts: { force?: boolean; dryRun?: boolean } = {},
): ExportResult {
  const contents: Array<[string, string]> = [[`${t.id}.md`, r.content]];
  if (r.fragment !== undefined) contents.push([EXPORT_FRAGMENT, r.fragment]);
  const manifest = {
    schema_version: 1,
    generator: GENERATOR,
    template_id: t.id,
    template_version: t.manifest.version,
    source: t.source,
    vendor: r.vendor,
    answers: r.answers,
    files: contents.map(([path, text]) => ({ path, sha256: sha256Hex(text) })),
  };
  contents.push([EXPORT_MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`]);
  const recorded = recordedHashes(dir);
  const files = contents.map(([name, text]) => plan(name, text, dir, recorded));
  const conflicts = files.filter((f) => f.action === 'conflict');
  // --force replaces files, never a folder, a FIFO or a symlink out of the output folder.
  const blocked = conflicts.filter((c) => c.blocked);
  if (blocked.length > 0)
    throw new RefusedError(
      `refusing to write ${blocked.map((c) => `${c.name} (${c.reason})`).join(', ')} in ${dir}`,
      { field: 'output', value: dir, rule: 'regular_file', conflicts: blocked },
      409,
    );
  if (conflicts.length > 0 && !opts.force)
    throw new RefusedError(
      `refusing to overwrite ${conflicts.map((c) => `${c.name} (${c.reason})`).join(', ')} in ${dir}; pass --force to replace`,
      { field: 'output', value: dir, rule: 'no_clobber', conflicts },
      409,
    );
  const written: string[] = [];
  if (!opts.dryRun) {
    mkdirSync(dir, { recursive: true });
    contents.forEach(([name, text], i) => {
      if (files[i]!.action === 'unchanged') return;
      writeFileUnder(dir, name, text);
      written.push(name);
    });
  }
  return {
    template_id: t.id,
    vendor: r.vendor,
    source: t.source,
    dir,
    dry_run: opts.dryRun === true,
    files,
    written,
  };
}
