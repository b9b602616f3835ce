import * as z from 'zod';
import { planCatalogAdd } from '../catalog/index.js';
import { writeManifestOperations } from './manifest-write.js';
import { defineOp, WRITES_IDEMPOTENT } from './registry.js';

export const catalogAdd = defineOp({
  id: 'catalog.add',
  summary:
    'Add a project, or a repo (by path or url) to a project, keeping comments; --ensure accepts a match.',
  description:
    'With --ensure (implied in agent mode) an entry that exists with the url or path passed (a project: with the description passed) is a success with operation: noop; one that differs is refused naming the field. Without it an existing entry is refused (already_exists).',
  input: z.strictObject({
    project: z.string().min(1).max(200).describe('Project to add, or to add the repo to.'),
    repo: z.string().min(1).max(200).optional().describe('Repo to add to the project.'),
    path: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('Checkout directory of the repo, relative to the manifest.'),
    url: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('Clone URL of the repo (it checks out to <project>/<repo>).'),
    description: z.string().max(2000).optional(),
    ensure: z.boolean().optional().describe('Succeed with operation: noop when a matching entry exists.'),
  }),
  gate: 'active',
  attributes: WRITES_IDEMPOTENT,
  handler: (ctx, input) => {
    // An agent retrying a step must not fail on what its first attempt did: agent mode implies --ensure.
    const ensure = input.ensure ?? ctx.agentMode;
    const plan = planCatalogAdd(ctx.workspace().catalog, { ...input, ensure });
    // The whole of config validate: a path outside the workspace is refused before it is written.
    writeManifestOperations(ctx, plan.operations, true);
    return plan.result;
  },
  cli: {
    command: 'catalog add',
    human: (r) => {
      const name = r.repo ? `${r.project}/${r.repo}` : r.project;
      return r.operation === 'noop' ? `${r.entity} unchanged (ensure): ${name}` : `added ${r.entity} ${name}`;
    },
  },
  http: [{ method: 'POST', route: '/v3/ops/catalog', input: 'body' }],
});
