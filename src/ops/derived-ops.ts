import * as z from 'zod';
import {
  parseSelection,
  planDerivedCreate,
  planDerivedExclude,
  planDerivedInclude,
  planDerivedRefresh,
} from '../catalog/index.js';
import { ValidationError, writeFileAtomicSync } from '../infra/index.js';
import { type PatchOperation, readUtf8File } from '../model/index.js';
import { manifestDraft } from './config-studio.js';
import type { OpContext } from './context.js';
import { defineOp, WRITES, WRITES_IDEMPOTENT } from './registry.js';

const nameField = z.string().min(1).max(200).describe('Name of the derived working set (a project).');
const selectionFields = {
  from: z
    .string()
    .min(1)
    .max(400)
    .optional()
    .describe('<project>/<repo> (the whole repo) or <project>/<repo>/<component> (that component).'),
  project: z.string().min(1).optional().describe('Source project (instead of --from).'),
  repo: z.string().min(1).optional().describe('Source repo (instead of --from).'),
  component: z.string().min(1).optional().describe('Source component (instead of --from).'),
};

/**
 * Writes a plan's operations through the same draft as `config patch --save`: comments and formatting kept, and
 * nothing written when the result would break a rule that needs no checkout (the catalog gate). Filesystem rules
 * are not checked: a copy inherits its source's checkout, and a missing directory there is the source's to fix.
 */
function applyPlan(ctx: OpContext, operations: PatchOperation[]): void {
  if (operations.length === 0) return;
  const path = ctx.workspace().file.path;
  const onDisk = readUtf8File(path, 'manifest');
  const d = manifestDraft(ctx, path, onDisk, operations, false, false);
  const blocking = d.errors.filter((e) => e.new !== false);
  if (blocking.length > 0) {
    const first = blocking[0]!;
    throw new ValidationError(
      `the change would make the manifest invalid: ${first.path}: ${first.message}${blocking.length > 1 ? ` (and ${blocking.length - 1} more)` : ''}`,
      { rule: first.rule, issues: blocking },
    );
  }
  if (d.text !== onDisk) writeFileAtomicSync(path, d.text);
  ctx.invalidate();
}

const now = (ctx: OpContext) => ctx.now().toISOString();

export const projectDerivedCreate = defineOp({
  id: 'project.derived.create',
  summary:
    'Create a derived working set: a project taking a repo (or one component) from another project, kept in sync.',
  description:
    'A two-segment --from copies the repo with its whole components list; three segments copy that one component and record it in derived.sources[].components. --include-dependencies adds the outbound depends_on neighbours at depth 1. The repo shares its source checkout (path).',
  input: z.strictObject({
    name: nameField,
    ...selectionFields,
    include_dependencies: z
      .boolean()
      .optional()
      .describe('Also take the outbound depends_on neighbours (depth 1) of what is selected.'),
    description: z.string().max(2000).optional().describe('Description of the new project.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input) => {
    const { catalog } = ctx.workspace();
    const selection = parseSelection(catalog, input);
    const plan = planDerivedCreate(catalog, { ...input, selection }, now(ctx));
    applyPlan(ctx, plan.operations);
    return plan.result;
  },
  cli: {
    command: 'project derived create',
    short: { name: 'n' },
    human: (r) =>
      [
        `created ${r.project}`,
        ...r.repos.map(
          (x) =>
            `  ${x.name} <- ${x.from} (${x.components === 'all' ? 'all components' : x.components.join(', ')})`,
        ),
      ].join('\n'),
  },
  mcp: { tool: 'hub_project_derived_create' },
  http: [{ method: 'POST', route: '/v3/ops/derived', input: 'body' }],
});

export const projectDerivedInclude = defineOp({
  id: 'project.derived.include',
  summary: 'Add a repo or one component to a derived working set (a component merges; a whole repo widens).',
  input: z.strictObject({ name: nameField, ...selectionFields }),
  gate: 'active',
  attributes: WRITES_IDEMPOTENT,
  handler: (ctx, input) => {
    const { catalog } = ctx.workspace();
    const selection = parseSelection(catalog, input);
    const plan = planDerivedInclude(catalog, { name: input.name, selection }, now(ctx));
    applyPlan(ctx, plan.operations);
    return plan.result;
  },
  cli: {
    command: 'project derived include',
    short: { name: 'n' },
    human: (r) =>
      `${r.operation} ${r.project}/${r.repo.name} <- ${r.repo.from} (${r.repo.components === 'all' ? 'all components' : r.repo.components.join(', ')})`,
  },
  http: [{ method: 'POST', route: '/v3/ops/derived/include', input: 'body' }],
});

export const projectDerivedRefresh = defineOp({
  id: 'project.derived.refresh',
  summary:
    "Copy a derived working set's repos again from their sources (identity, tags, components); membership stays.",
  input: z.strictObject({ name: nameField }),
  gate: 'active',
  attributes: WRITES_IDEMPOTENT,
  handler: (ctx, input) => {
    const plan = planDerivedRefresh(ctx.workspace().catalog, input, now(ctx));
    applyPlan(ctx, plan.operations);
    return plan.result;
  },
  cli: {
    command: 'project derived refresh',
    short: { name: 'n' },
    human: (r) =>
      [
        `refreshed ${r.refreshed.length} repo(s) of ${r.project}`,
        ...r.missing_sources.map((s) => `  source gone: ${s}`),
        ...r.missing_components.map((s) => `  component gone from its source: ${s}`),
      ].join('\n'),
  },
  http: [{ method: 'POST', route: '/v3/ops/derived/refresh', input: 'body' }],
});

export const projectDerivedExclude = defineOp({
  id: 'project.derived.exclude',
  summary: 'Remove a repo, or one component of a repo, from a derived working set.',
  input: z.strictObject({
    name: nameField,
    repo: z.string().min(1).describe('Repo of the derived set to remove (or to remove a component from).'),
    component: z.string().min(1).optional().describe('Only this component of the repo.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input) => {
    const plan = planDerivedExclude(ctx.workspace().catalog, input);
    applyPlan(ctx, plan.operations);
    return plan.result;
  },
  cli: {
    command: 'project derived exclude',
    short: { name: 'n' },
    human: (r) =>
      r.operation === 'removed_repo'
        ? `removed ${r.project}/${r.repo}`
        : `removed ${r.project}/${r.repo}/${r.component}`,
  },
  http: [{ method: 'POST', route: '/v3/ops/derived/exclude', input: 'body' }],
});
