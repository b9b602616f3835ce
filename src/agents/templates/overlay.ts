import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RefusedError, resolveReal, ValidationError, writeFileUnder } from '../../infra/index.js';
import { yaml } from '../../model/index.js';
import { layerDir, OVERLAY_DIRS, type TemplateRoots } from './layers.js';
import { resolveTemplate, templateText } from './resolve.js';
import { BODY_FILE, checkTemplateId, MANIFEST_FILE } from './schema.js';

export type OverlayScope = 'committed' | 'local';
export type OverlayMode = 'full' | 'minimal';

export interface OverlayLocation {
  id: string;
  scope: OverlayScope;
  /** Absolute path of the overlay folder. */
  path: string;
  /** Relative to the workspace root. */
  relative: string;
  exists: boolean;
}

export interface OverlayInitResult extends OverlayLocation {
  mode: OverlayMode;
  /** Files written, relative to the overlay folder. */
  written: string[];
}

const header = (id: string, scope: OverlayScope) =>
  [
    `# ${scope === 'local' ? 'Personal (gitignored)' : 'Team (committed)'} overlay of the agent template '${id}', made by`,
    '# `hub agent overlay init`. It merges over the layers below it: a map merges key by key, a scalar or a list',
    '# replaces the one below, `key+: [...]` appends to a list, `key-: [...]` removes items from it, `key: null`',
    '# removes a key. A .tpl file here replaces the file of the same name. Delete what you do not change, then run',
    `# \`hub agent validate ${id}\`.`,
    '',
  ].join('\n');

function workspaceOf(roots: TemplateRoots): string {
  if (roots.workspaceRoot === undefined)
    throw new ValidationError('overlays live in a workspace: run it where a .hub.yml is (or pass -c)', {
      field: 'workspace',
      rule: 'workspace_root',
    });
  return roots.workspaceRoot;
}

/** Where the team (committed) or personal (local) overlay of `id` lives. */
export function overlayLocation(id: string, roots: TemplateRoots, scope: OverlayScope): OverlayLocation {
  checkTemplateId(id);
  const root = workspaceOf(roots);
  const path = layerDir(scope, roots, id)!;
  return { id, scope, path, relative: relative(root, path), exists: existsSync(path) };
}

/** The bundled template.yaml text without its leading comments (they point at bundled paths). */
const bodyOfYaml = (text: string) => text.replace(/^(?:#[^\n]*\n|\s*\n)*/, '');

/**
 * Writes an overlay of `id`: `full` copies template.yaml and every `.tpl` the template resolves to (from the
 * layers below the overlay, so a personal overlay starts from the team's); `minimal` writes a template.yaml stub
 * and body.md.tpl. A folder that already holds files is refused unless `force`. Files are written atomically and
 * never through a symlink that leads out of the workspace; a personal overlay folder gets a `.gitignore`.
 */
export function initOverlay(
  id: string,
  roots: TemplateRoots,
  opts: { scope: OverlayScope; mode: OverlayMode; force?: boolean },
): OverlayInitResult {
  const loc = overlayLocation(id, roots, opts.scope);
  const root = workspaceOf(roots);
  const below = resolveTemplate(id, roots, { upTo: opts.scope === 'local' ? 'committed' : 'bundled' });
  if (loc.exists) {
    const real = resolveReal(root, loc.path);
    if (real === undefined || !lstatSync(real).isDirectory())
      throw new RefusedError(`refusing ${loc.relative}: it is not a folder inside the workspace`, {
        field: 'id',
        value: id,
        rule: 'inside_workspace',
      });
    if (readdirSync(real).length > 0 && !opts.force)
      throw new RefusedError(
        `${loc.relative} already holds an overlay; edit it, or pass --force to write the ${opts.mode} copy over it`,
        { field: 'id', value: id, rule: 'overlay_exists', path: loc.relative },
        409,
      );
  }
  const files: Array<[string, string]> = [];
  if (opts.mode === 'minimal') {
    files.push([MANIFEST_FILE, `${header(id, opts.scope)}schema_version: 1\nid: ${id}\n`]);
    files.push([BODY_FILE, templateText(below, BODY_FILE)]);
  } else {
    const onlyBundled = below.layers.length === 1 && below.layers[0]!.origin === 'bundled';
    const manifestText = onlyBundled
      ? bodyOfYaml(below.layers[0]!.src!.text)
      : yaml().stringify(below.manifest, { lineWidth: 0 });
    files.push([MANIFEST_FILE, `${header(id, opts.scope)}${manifestText}`]);
    for (const name of [...below.files.keys()].sort()) files.push([name, templateText(below, name)]);
  }
  if (opts.scope === 'local') {
    const ignore = join(OVERLAY_DIRS.local, '.gitignore');
    if (!existsSync(join(root, ignore)))
      writeFileUnder(root, ignore, '# personal agent template overlays\n*\n');
  }
  for (const [name, text] of files) writeFileUnder(root, join(loc.relative, name), text);
  return { ...loc, exists: true, mode: opts.mode, written: files.map(([name]) => name) };
}
