import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isInside, resolveReal, tryReadFileBounded, ValidationError } from '../../infra/index.js';
import { decodeUtf8, parseYamlSource, type YamlSource, yamlToJs } from '../../model/index.js';
import { isPlainObject } from './merge.js';
import { MANIFEST_FILE, TEMPLATE_ID_RE, TEMPLATE_LIMITS } from './schema.js';

/** Where a template's layers live: the package's bundled folder and, for overlays, the workspace root. */
export interface TemplateRoots {
  /** `templates/agents` of the installed package. */
  bundledDir: string;
  /** The workspace root (the manifest's folder); without it only bundled templates exist. */
  workspaceRoot?: string;
}

/** bundled -> committed overlay -> local (personal) overlay; a later layer wins. */
export type LayerOrigin = 'bundled' | 'committed' | 'local';
export const LAYER_ORIGINS: readonly LayerOrigin[] = ['bundled', 'committed', 'local'];

/** Overlay folders relative to the workspace root (the spec's names). */
export const OVERLAY_DIRS: Readonly<Record<Exclude<LayerOrigin, 'bundled'>, string>> = {
  committed: '.hub-agents',
  local: join('.hub', '.agent-templates'),
};
/** Bundled partials every template may include (`{{> name}}`). */
export const SHARED_DIR = '_shared';

/** One folder of one template: its template.yaml (parsed with positions) and its `.tpl` files by name. */
export interface TemplateLayer {
  origin: LayerOrigin;
  /** Real path of the folder. */
  dir: string;
  /** The folder reads are confined to (bundled folder or workspace root). */
  root: string;
  /** How messages name files of this layer. */
  shownDir: string;
  manifestPath?: string;
  src?: YamlSource;
  data?: Record<string, unknown>;
  tpl: Map<string, string>;
}

const TPL_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.tpl$/;

/** The folder of a template in one root (not checked). */
export function layerDir(origin: LayerOrigin, roots: TemplateRoots, id: string): string | undefined {
  if (origin === 'bundled') return join(roots.bundledDir, id);
  return roots.workspaceRoot === undefined ? undefined : join(roots.workspaceRoot, OVERLAY_DIRS[origin], id);
}

/** The folder holding every template of one root, when it has one. */
export function rootDir(origin: LayerOrigin, roots: TemplateRoots): string | undefined {
  if (origin === 'bundled') return roots.bundledDir;
  return roots.workspaceRoot === undefined ? undefined : join(roots.workspaceRoot, OVERLAY_DIRS[origin]);
}

function confinement(origin: LayerOrigin, roots: TemplateRoots): string {
  return origin === 'bundled' ? roots.bundledDir : roots.workspaceRoot!;
}

function shownPath(origin: LayerOrigin, roots: TemplateRoots, abs: string): string {
  return origin === 'bundled' ? abs : relative(roots.workspaceRoot!, abs) || '.';
}

/**
 * Reads one layer of a template, or undefined when its folder does not exist. A folder whose real path leaves its
 * root (a symlink out of the workspace) is refused; so is any file later read from it.
 */
export function readLayer(origin: LayerOrigin, roots: TemplateRoots, id: string): TemplateLayer | undefined {
  const dir = layerDir(origin, roots, id);
  if (dir === undefined || !exists(dir)) return undefined;
  const root = confinement(origin, roots);
  const shownDir = shownPath(origin, roots, dir);
  const real = resolveReal(root, dir);
  if (real === undefined)
    throw new ValidationError(
      `agent template ${shownDir}: its real path lies outside ${origin === 'bundled' ? 'the bundled templates' : 'the workspace'} (rule inside_workspace)`,
      { file: shownDir, field: 'id', value: id, rule: 'inside_workspace' },
    );
  let entries: Dirent[];
  try {
    entries = readdirSync(real, { withFileTypes: true });
  } catch (err) {
    throw new ValidationError(
      `agent template ${shownDir}: not a readable folder (${(err as NodeJS.ErrnoException).code ?? err})`,
      { file: shownDir, rule: 'folder' },
    );
  }
  const layer: TemplateLayer = { origin, dir: real, root, shownDir, tpl: new Map() };
  for (const e of entries) {
    if (e.name === MANIFEST_FILE) layer.manifestPath = join(real, e.name);
    else if (TPL_NAME_RE.test(e.name)) {
      if (layer.tpl.size >= TEMPLATE_LIMITS.filesPerLayer)
        throw new ValidationError(
          `agent template ${shownDir}: more than ${TEMPLATE_LIMITS.filesPerLayer} .tpl files (rule max_files)`,
          { file: shownDir, rule: 'max_files', limit: TEMPLATE_LIMITS.filesPerLayer },
        );
      layer.tpl.set(e.name, join(real, e.name));
    }
  }
  if (layer.manifestPath) {
    const shown = join(shownDir, MANIFEST_FILE);
    const text = readTemplateText(layer.manifestPath, root, shown, TEMPLATE_LIMITS.manifestBytes);
    layer.src = parseYamlSource(text, shown, 'agent template');
    const data = yamlToJs(layer.src, 'agent template') ?? {};
    if (!isPlainObject(data))
      throw new ValidationError(`agent template ${shown} line 1: (root): must be a YAML mapping`, {
        file: shown,
        line: 1,
        field: '(root)',
        rule: 'mapping',
      });
    layer.data = data;
  }
  return layer;
}

/** Reads a template file as UTF-8: a regular file, inside `root` on its real path, at most `maxBytes`. */
export function readTemplateText(path: string, root: string, shown: string, maxBytes: number): string {
  const r = tryReadFileBounded(path, { maxBytes, root, rootName: 'its root' });
  if (!r.ok) {
    const rule = r.rule === 'inside_root' ? 'inside_workspace' : r.rule;
    throw new ValidationError(`agent template ${shown}: cannot read it: ${r.reason} (rule ${rule})`, {
      file: shown,
      rule,
      ...(r.rule === 'max_size' ? { limit: maxBytes } : {}),
    });
  }
  return decodeUtf8(r.bytes, shown, 'agent template');
}

/** Template folder names of one root (names that are not template ids are reported, `_`/`.` ones skipped). */
export function templateFolders(
  origin: LayerOrigin,
  roots: TemplateRoots,
): { ids: string[]; problems: Array<{ folder: string; message: string }> } {
  const dir = rootDir(origin, roots);
  if (dir === undefined || !exists(dir)) return { ids: [], problems: [] };
  const root = confinement(origin, roots);
  const real = resolveReal(root, dir);
  const shown = shownPath(origin, roots, dir);
  if (real === undefined || (origin !== 'bundled' && !isInside(root, real)))
    return {
      ids: [],
      problems: [{ folder: shown, message: `${shown}: its real path lies outside the workspace` }],
    };
  const ids: string[] = [];
  const problems: Array<{ folder: string; message: string }> = [];
  let entries: Dirent[];
  try {
    entries = readdirSync(real, { withFileTypes: true });
  } catch {
    return { ids, problems: [{ folder: shown, message: `${shown}: not a readable folder` }] };
  }
  for (const e of entries) {
    if (e.name.startsWith('_') || e.name.startsWith('.')) continue;
    if (!e.isDirectory() && !e.isSymbolicLink()) continue;
    if (!TEMPLATE_ID_RE.test(e.name) || e.name.length > 64) {
      problems.push({ folder: join(shown, e.name), message: `${join(shown, e.name)}: not a template id` });
      continue;
    }
    if (ids.length >= TEMPLATE_LIMITS.templatesPerRoot) {
      problems.push({
        folder: shown,
        message: `${shown}: more than ${TEMPLATE_LIMITS.templatesPerRoot} templates`,
      });
      break;
    }
    ids.push(e.name);
  }
  return { ids: ids.sort(), problems };
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
