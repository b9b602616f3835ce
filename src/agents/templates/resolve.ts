import { join } from 'node:path';
import { didYouMean, suggestionText } from '../../catalog/index.js';
import { HubError, NotFoundError, ValidationError } from '../../infra/index.js';
import { formatPath, positionOf, yaml } from '../../model/index.js';
import {
  LAYER_ORIGINS,
  type LayerOrigin,
  readLayer,
  readTemplateText,
  SHARED_DIR,
  type TemplateLayer,
  type TemplateRoots,
  templateFolders,
} from './layers.js';
import { MergeIssue, mergeLayer } from './merge.js';
import {
  BODY_FILE,
  BUILTIN_VARIABLES,
  checkTemplateId,
  MANIFEST_FILE,
  TEMPLATE_LIMITS,
  type TemplateManifest,
  TemplateManifestSchema,
} from './schema.js';

/** bundled (no overlay), overlay (no bundled template) or merged (a bundled template and at least one overlay). */
export type TemplateSource = 'bundled' | 'overlay' | 'merged';

/** A `.tpl` file as resolved: the top layer that has it wins; `shared` are the bundled partials. */
export interface TemplateFile {
  name: string;
  path: string;
  origin: LayerOrigin | 'shared';
  /** The folder its read is confined to. */
  root: string;
  /** How messages name it. */
  shown: string;
}

export interface ResolvedTemplate {
  id: string;
  manifest: TemplateManifest;
  source: TemplateSource;
  layers: TemplateLayer[];
  files: Map<string, TemplateFile>;
  /** Text of each file once read (renders for eight vendors read each file once). */
  texts: Map<string, string>;
}

/** One problem of a template, with the file and line it comes from. */
export interface TemplateIssue {
  file: string;
  line?: number;
  column?: number;
  field?: string;
  variable?: string;
  message: string;
  rule: string;
}

type Path = Array<string | number>;

const hasAt = (layer: TemplateLayer, path: Path): boolean => {
  if (!layer.src) return false;
  if (layer.src.doc.hasIn(path)) return true;
  const last = path[path.length - 1];
  if (typeof last !== 'string') return false;
  const parent = path.slice(0, -1);
  return layer.src.doc.hasIn([...parent, `${last}+`]) || layer.src.doc.hasIn([...parent, `${last}-`]);
};

/** Line of the key that holds `path` in a mapping (a map value starts on the line after its key). */
function keyPosition(layer: TemplateLayer, path: Path): { line: number; column: number } | undefined {
  const last = path[path.length - 1];
  if (typeof last !== 'string') return undefined;
  const parent = path.length === 1 ? layer.src!.doc.contents : layer.src!.doc.getIn(path.slice(0, -1), true);
  if (!yaml().isMap(parent)) return undefined;
  for (const pair of parent.items) {
    const key = pair.key as { value?: unknown; range?: [number, number, number] } | null;
    if (key && [last, `${last}+`, `${last}-`].includes(String(key.value)) && key.range) {
      const p = layer.src!.lines.linePos(key.range[0]);
      return { line: p.line, column: p.col };
    }
  }
  return undefined;
}

/** The topmost layer that set `path` (or the longest part of it), with the file and line there. */
export function locate(
  layers: TemplateLayer[],
  path: Path,
): { file: string; line?: number; column?: number } {
  const withSrc = layers.filter((l) => l.src).reverse();
  for (let n = path.length; n >= 0; n--) {
    const part = path.slice(0, n);
    const layer = withSrc.find((l) => hasAt(l, part));
    if (layer) {
      const pos = keyPosition(layer, part) ?? positionOf(layer.src!, part);
      return { file: layer.src!.path, line: pos?.line, column: pos?.column };
    }
  }
  const top = withSrc[0] ?? layers[layers.length - 1]!;
  return { file: top.src?.path ?? join(top.shownDir, MANIFEST_FILE), line: top.src ? 1 : undefined };
}

/** Throws one ValidationError for issues of a template, naming the first file, line and field. */
export function throwTemplateIssues(issues: TemplateIssue[]): never {
  const first = issues[0]!;
  const where = `${first.file}${first.line ? ` line ${first.line}` : ''}`;
  const what = first.field ? `${first.field}: ` : first.variable ? `variable '${first.variable}': ` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  throw new ValidationError(`agent template ${where}: ${what}${first.message}${more}`, {
    file: first.file,
    ...(first.line ? { line: first.line } : {}),
    ...(first.field ? { field: first.field } : {}),
    ...(first.variable ? { variable: first.variable } : {}),
    rule: first.rule,
    issues,
  });
}

/** The layers of `id` up to and including `upTo` (overlay init resolves what lies below its target). */
function readLayers(id: string, roots: TemplateRoots, upTo: LayerOrigin): TemplateLayer[] {
  const out: TemplateLayer[] = [];
  for (const origin of LAYER_ORIGINS.slice(0, LAYER_ORIGINS.indexOf(upTo) + 1)) {
    const layer = readLayer(origin, roots, id);
    if (layer) out.push(layer);
  }
  return out;
}

function mergeManifests(id: string, layers: TemplateLayer[]): TemplateManifest {
  let merged: unknown = {};
  for (const layer of layers) {
    if (!layer.data) continue;
    if (layer.origin !== 'bundled' && layer.data.id !== undefined && layer.data.id !== id)
      throwTemplateIssues([
        {
          ...locate([layer], ['id']),
          field: 'id',
          message: `'${String(layer.data.id)}' differs from its folder name '${id}' (an overlay may leave id out)`,
          rule: 'id_matches_folder',
        },
      ]);
    try {
      merged = mergeLayer(merged, layer.data);
    } catch (err) {
      if (!(err instanceof MergeIssue)) throw err;
      const pos = positionOf(layer.src!, err.path);
      throwTemplateIssues([
        {
          file: layer.src!.path,
          line: pos?.line,
          field: formatPath(err.path),
          message: err.message,
          rule: err.rule,
        },
      ]);
    }
  }
  const data = { ...(merged as Record<string, unknown>) };
  data.id ??= id;
  const parsed = TemplateManifestSchema.safeParse(data);
  if (parsed.success) {
    const clash = Object.keys(parsed.data.inputs).find((k) =>
      (BUILTIN_VARIABLES as readonly string[]).includes(k),
    );
    if (clash !== undefined)
      throwTemplateIssues([
        {
          ...locate(layers, ['inputs', clash]),
          field: `inputs.${clash}`,
          message: `'${clash}' is a built-in variable (${BUILTIN_VARIABLES.join(', ')}); name the input otherwise`,
          rule: 'builtin_variable',
        },
      ]);
    if (Object.keys(parsed.data.inputs).length > TEMPLATE_LIMITS.inputs)
      throwTemplateIssues([
        {
          ...locate(layers, ['inputs']),
          field: 'inputs',
          message: `more than ${TEMPLATE_LIMITS.inputs} inputs`,
          rule: 'max_inputs',
        },
      ]);
    return parsed.data;
  }
  throwTemplateIssues(
    parsed.error.issues.map((iss): TemplateIssue => {
      const base = iss.path as Path;
      const path = iss.code === 'unrecognized_keys' ? [...base, iss.keys[0]!] : base;
      const message =
        iss.code === 'unrecognized_keys'
          ? `unknown key(s) ${iss.keys.map((k) => `'${k}'`).join(', ')}`
          : iss.message;
      return { ...locate(layers, path), field: formatPath(path), message, rule: `schema.${iss.code}` };
    }),
  );
}

function collectFiles(layers: TemplateLayer[], roots: TemplateRoots): Map<string, TemplateFile> {
  const files = new Map<string, TemplateFile>();
  const shared = readLayer('bundled', roots, SHARED_DIR);
  for (const [name, path] of shared?.tpl ?? [])
    files.set(name, {
      name,
      path,
      origin: 'shared',
      root: shared!.root,
      shown: join(shared!.shownDir, name),
    });
  for (const layer of layers)
    for (const [name, path] of layer.tpl)
      files.set(name, {
        name,
        path,
        origin: layer.origin,
        root: layer.root,
        shown: join(layer.shownDir, name),
      });
  return files;
}

/** Every template id of the three roots, sorted, with folders that could not be listed. */
export function templateIds(roots: TemplateRoots): {
  ids: string[];
  problems: Array<{ folder: string; message: string }>;
} {
  const ids = new Set<string>();
  const problems: Array<{ folder: string; message: string }> = [];
  for (const origin of LAYER_ORIGINS) {
    const r = templateFolders(origin, roots);
    for (const id of r.ids) ids.add(id);
    problems.push(...r.problems);
  }
  return { ids: [...ids].sort(), problems };
}

/** `id` when some root has a template of that name (malformed or not), else not-found with "did you mean". */
export function knownTemplateId(id: string, roots: TemplateRoots): string {
  checkTemplateId(id);
  const known = templateIds(roots).ids;
  if (known.includes(id)) return id;
  throw new NotFoundError(
    `id: no agent template '${id}'${suggestionText(didYouMean(id, known))}; known: ${known.join(', ')}`,
    { field: 'id', value: id, rule: 'known_template', known },
  );
}

/**
 * The template `id` as its layers make it: bundled -> committed overlay (`.hub-agents/<id>/`) -> local overlay
 * (`.hub/.agent-templates/<id>/`), template.yaml deep-merged (merge.ts), `.tpl` files replaced by name.
 * `upTo` stops at a layer (overlay init resolves what lies below the overlay it writes).
 */
export function resolveTemplate(
  id: string,
  roots: TemplateRoots,
  opts: { upTo?: LayerOrigin } = {},
): ResolvedTemplate {
  checkTemplateId(id);
  const layers = readLayers(id, roots, opts.upTo ?? 'local');
  if (layers.length === 0) knownTemplateId(id, roots);
  const manifest = mergeManifests(id, layers);
  const files = collectFiles(layers, roots);
  const own = layers.some((l) => l.tpl.has(BODY_FILE));
  if (!own)
    throwTemplateIssues([
      {
        file: join(layers[layers.length - 1]!.shownDir, BODY_FILE),
        message: `missing: every template needs ${BODY_FILE}`,
        rule: 'body_file',
      },
    ]);
  const bundled = layers.some((l) => l.origin === 'bundled');
  const source: TemplateSource = !bundled ? 'overlay' : layers.length > 1 ? 'merged' : 'bundled';
  return { id, manifest, source, layers, files, texts: new Map() };
}

/** The text of one `.tpl` file of a resolved template (read once, bounded, confined to its root). */
export function templateText(t: ResolvedTemplate, name: string): string {
  const cached = t.texts.get(name);
  if (cached !== undefined) return cached;
  const file = t.files.get(name);
  if (!file)
    throw new NotFoundError(`agent template ${t.id}: no file ${name}`, { file: name, rule: 'exists' });
  const text = readTemplateText(file.path, file.root, file.shown, TEMPLATE_LIMITS.tplBytes);
  t.texts.set(name, text);
  return text;
}

/** Every template of the roots, resolved; one that cannot be resolved is a problem, not the end of the list. */
export function listTemplates(roots: TemplateRoots): {
  templates: ResolvedTemplate[];
  problems: Array<{ id?: string; file?: string; line?: number; message: string; rule: string }>;
} {
  const { ids, problems: folderProblems } = templateIds(roots);
  const templates: ResolvedTemplate[] = [];
  const problems: Array<{ id?: string; file?: string; line?: number; message: string; rule: string }> =
    folderProblems.map((p) => ({ file: p.folder, message: p.message, rule: 'template_folder' }));
  for (const id of ids) {
    try {
      templates.push(resolveTemplate(id, roots));
    } catch (err) {
      if (!(err instanceof HubError)) throw err;
      const d = (err.details ?? {}) as { file?: string; line?: number; rule?: string };
      problems.push({ id, file: d.file, line: d.line, message: err.message, rule: d.rule ?? err.code });
    }
  }
  templates.sort(
    (a, b) => a.manifest.ui.sort_order - b.manifest.ui.sort_order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return { templates, problems };
}
