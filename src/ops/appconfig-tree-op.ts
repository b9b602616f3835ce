import * as z from 'zod';
import {
  configTree,
  jsonSchemaOf,
  parsePatchPath,
  parseYamlSource,
  redactAppConfig,
  type TreeNode,
  yamlToJs,
} from '../model/index.js';
import { appConfigTarget } from './appconfig-ops.js';
import { treeLines } from './config-studio-ops.js';
import { defineOp, READ_ONLY } from './registry.js';

const WHAT = 'application config';

/**
 * Config Studio's tree of the application config: the file `appconfig patch` and `appconfig preview` edit, as
 * written (no HUB_* overrides), walked with its JSON Schema. Secrets are redacted before the walk, so no node's
 * value carries one (`***` plus the last four characters, as every other view of the file).
 */
export const appconfigTree = defineOp({
  id: 'appconfig.tree',
  summary:
    'hub.config.yaml as a schema-annotated tree: each node with its path, type, value, default and whether it is set; secrets redacted.',
  description:
    'The file appconfig patch and appconfig preview edit (HUB_* overrides not applied). Paths are JSON pointers, as patch operations take them; fields the file leaves out are listed with set: false.',
  input: z.strictObject({
    path: z.string().min(1).max(1024).optional().describe('Only the subtree at this JSON pointer.'),
  }),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (ctx, input): { file: string; path: string; tree: TreeNode } => {
    const { target, before } = appConfigTarget(ctx);
    const raw = before.trim() === '' ? {} : yamlToJs(parseYamlSource(before, target, WHAT), WHAT);
    const at = input.path === undefined || input.path === '/' ? [] : parsePatchPath(input.path);
    const tree = configTree(redactAppConfig(raw ?? {}), jsonSchemaOf('appconfig'), at);
    return { file: target, path: tree.path, tree };
  },
  cli: { command: 'appconfig tree', human: (r) => treeLines(r.tree).join('\n') },
  http: [{ method: 'GET', route: '/v3/config/appconfig/tree', input: 'query' }],
});
