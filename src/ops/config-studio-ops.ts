import * as z from 'zod';
import { writeFileAtomicSync } from '../infra/index.js';
import {
  configTree,
  jsonSchemaOf,
  locateManifest,
  parsePatchPath,
  parseYamlSource,
  readManifestText,
  type TreeNode,
  yamlLimitsFor,
  yamlToJs,
} from '../model/index.js';
import {
  draftFields,
  errorLines,
  guardFull,
  manifestDraft,
  operationsOf,
  type PreviewResult,
  previewHuman,
  styled,
  styleField,
} from './config-studio.js';
import { configuredManifestLimit } from './manifest-check.js';
import { defineOp, READ_ONLY, WRITES_IDEMPOTENT } from './registry.js';

const confirmFull = z.boolean().optional().describe('Allow output for workspaces above 80 repositories.');

export const configTreeOp = defineOp({
  id: 'config.tree',
  summary:
    'The manifest as a schema-annotated tree: each node with its path, type, value, default and whether it is set.',
  description:
    'Paths are JSON pointers that name list items by their name (`/workspace/projects/core/repos/api`), as patch operations take them. Fields the file leaves out are listed with set: false.',
  input: z.strictObject({
    path: z.string().min(1).max(1024).optional().describe('Only the subtree at this JSON pointer.'),
    confirm_full: confirmFull,
  }),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (ctx, input): { file: string; path: string; repo_count: number; tree: TreeNode } => {
    const file = locateManifest(ctx.cwd, ctx.definition);
    const { text, maxBytes } = readManifestText(file, configuredManifestLimit(ctx));
    const src = parseYamlSource(text, file, 'manifest', { limits: yamlLimitsFor(maxBytes) });
    const raw = yamlToJs(src, 'manifest') ?? {};
    const at = input.path === undefined || input.path === '/' ? [] : parsePatchPath(input.path);
    const tree = configTree(raw, jsonSchemaOf('manifest'), at);
    const repos = countRepoNodes(tree);
    guardFull(repos, input.confirm_full, 'the tree');
    return { file, path: tree.path, repo_count: repos, tree };
  },
  cli: { command: 'config tree', human: (r) => treeLines(r.tree).join('\n') },
  http: [{ method: 'GET', route: '/v3/config/hub/tree', input: 'query' }],
});

const REPO_NODE = /^\/workspace\/projects\/[^/]+\/repos\/[^/]+$/;

function countRepoNodes(tree: TreeNode): number {
  let n = 0;
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (REPO_NODE.test(node.path)) n++;
    else if (node.children) stack.push(...node.children);
  }
  return n;
}

/** `key: value  [type, default x]` lines, indented by depth; unset fields are shown only as `(unset)` leaves. */
export function treeLines(root: TreeNode): string[] {
  const out: string[] = [];
  const stack: Array<{ node: TreeNode; depth: number }> = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    const notes = [node.type];
    if (node.default !== undefined) notes.push(`default ${JSON.stringify(node.default)}`);
    if (!node.set) notes.push('unset');
    const value = node.value !== undefined && node.set ? ` ${JSON.stringify(node.value)}` : '';
    out.push(`${'  '.repeat(depth)}${node.key || node.path || '/'}:${value}  [${notes.join(', ')}]`);
    const kids = node.children ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i]!, depth: depth + 1 });
  }
  return out;
}

export const configPreview = defineOp({
  id: 'config.preview',
  summary:
    'Preview a draft of patch operations on the manifest: normalized, minimal or on-disk, with its validation errors.',
  description:
    'Never writes. Operations: {op: set|unset|append|remove, path, value}; paths are JSON pointers (list items by index or name, `-` appends). Every rule of config validate runs on the draft; an error the file on disk has already is marked new: false.',
  input: z.strictObject({ style: styleField, ...draftFields, confirm_full: confirmFull }),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (ctx, input): PreviewResult => {
    const path = locateManifest(ctx.cwd, ctx.definition);
    const onDisk = readManifestText(path, configuredManifestLimit(ctx)).text;
    const ops = operationsOf(ctx, input);
    const d = manifestDraft(ctx, path, onDisk, ops, true);
    guardFull(d.repos, input.confirm_full, 'the manifest');
    const style = input.style ?? 'normalized';
    const shown = styled(style, 'manifest', onDisk, d.text, d.model);
    return {
      file: path,
      style,
      operations: ops.length,
      changed: d.text !== onDisk,
      valid: d.errors.length === 0,
      validation_errors: d.errors,
      ...shown,
    };
  },
  cli: { command: 'config preview', exitCode: (r) => (r.valid ? 0 : 1), human: (r) => previewHuman(r) },
  http: [{ method: 'POST', route: '/v3/config/hub/preview', input: 'body' }],
});

export const configPatch = defineOp({
  id: 'config.patch',
  summary:
    'Apply patch operations to the manifest, keeping comments and formatting (only changed lines change); writes only with save.',
  description:
    'A draft with a validation error the file on disk does not already have is never written: validation_errors lists it and the command exits 1.',
  input: z.strictObject({
    ...draftFields,
    save: z.boolean().optional().describe('Write the file (atomically); without it, only preview.'),
  }),
  gate: 'none',
  attributes: WRITES_IDEMPOTENT,
  handler: (ctx, input) => {
    const path = locateManifest(ctx.cwd, ctx.definition);
    const onDisk = readManifestText(path, configuredManifestLimit(ctx)).text;
    const ops = operationsOf(ctx, input);
    // An operation that cannot apply is an error here (a preview reports it instead).
    const d = manifestDraft(ctx, path, onDisk, ops, false);
    const blocking = d.errors.filter((e) => e.new !== false);
    const changed = d.text !== onDisk;
    const saved = Boolean(input.save) && blocking.length === 0;
    if (saved && changed) {
      writeFileAtomicSync(path, d.text);
      ctx.invalidate();
    }
    return {
      file: path,
      operations: ops.length,
      saved,
      changed,
      valid: blocking.length === 0,
      validation_errors: d.errors,
      text: d.text,
    };
  },
  cli: {
    command: 'config patch',
    exitCode: (r) => (r.valid ? 0 : 1),
    human: (r) =>
      !r.valid
        ? [
            `nothing written: the draft has ${r.validation_errors.length} validation error(s):`,
            ...errorLines(r.validation_errors),
          ].join('\n')
        : r.saved
          ? `${r.changed ? 'saved' : 'unchanged'} ${r.file}`
          : `${r.text}\n(preview: pass --save to write ${r.file})`,
  },
  http: [{ method: 'POST', route: '/v3/config/hub/patch', input: 'body' }],
});
