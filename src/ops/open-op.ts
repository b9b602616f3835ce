import * as z from 'zod';
import { userSettingFile } from '../model/index.js';
import { launchEditor, managedRepoAt } from '../workspace/index.js';
import { defineOp } from './registry.js';

export const repoOpen = defineOp({
  id: 'repo.open',
  summary: 'Open a managed repository in the configured editor (config.editor); any other path is refused.',
  description:
    'Only the absolute path of a repository of the manifest that exists on disk, compared by real path. The ' +
    'editor runs without a shell, detached, with the path as its last argument. An editor that is not installed ' +
    'is refused (409, rule editor_installed) naming config.editor and the file to set it in.',
  input: z.strictObject({
    path: z.string().min(1).describe('Absolute path of a managed repository that exists on disk.'),
  }),
  gate: 'active',
  attributes: { readOnly: false, idempotent: true, destructive: false },
  handler: async (ctx, input) => {
    const { repo, real } = managedRepoAt(ctx.workspace().catalog, input.path, ctx.checkouts());
    const app = ctx.appConfig();
    const run = await launchEditor(app.config.config.editor, real, ctx.env, {
      configFile: userSettingFile(app, ctx.env, ctx.cwd),
    });
    return { opened: true, repository: repo.id, path: real, editor: run.command, args: run.args };
  },
  cli: { command: 'repo open', args: ['path'], human: (r) => `opened ${r.repository} in ${r.editor}` },
  http: [{ method: 'POST', route: '/v3/ops/open', input: 'body' }],
});
