import * as z from 'zod';
import {
  parseSelection,
  planDerivedCreate,
  planDerivedExclude,
  planDerivedInclude,
  planDerivedRefresh,
} from '../catalog/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { writeManifestOperations } from './manifest-write.js';
import { defineOp, WRITES, WRITES_IDEMPOTENT } from './registry.js';

const nameField = z.string().min(1).max(200).describe('Name of the new project.');
const selectionFields = {
  from: z.string().min(1).max(400).optional().describe('<project>/<repo> or <project>/<repo>/<component>.'),
  project: z.string().min(1).optional().describe('Source project (instead of `from`).'),
  repo: z.string().min(1).optional().describe('Source repo (instead of `from`).'),
  component: z.string().min(1).optional().describe('Source component (instead of `from`).'),
};

/**
 * Filesystem rules do not block a derived set's write: a copy inherits its source's checkout, and a directory
 * missing there is the source's to fix (`config validate` still reports it).
 */
const FILESYSTEM_RULES = false;

const now = (ctx: OpContext) => ctx.now().toISOString();

export const projectDerivedCreate = defineOp({
  id: 'project.derived.create',
  summary: 'Create a project taking a repo or component from another, kept in sync.',
  description:
    'A two-segment --from copies the repo with its whole components list; three segments copy that one component and record it in derived.sources[].components. --include-dependencies adds the outbound depends_on neighbours at depth 1. The repo shares its source checkout (path).',
  input: z.strictObject({
    name: nameField,
    ...selectionFields,
    include_dependencies: z.boolean().optional().describe('Also take their depends_on neighbours (depth 1).'),
    description: cliHelp(z.string().max(2000).optional(), 'Description of the new project.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input) => {
    const { catalog } = ctx.workspace();
    const selection = parseSelection(catalog, input);
    const plan = planDerivedCreate(catalog, { ...input, selection }, now(ctx));
    writeManifestOperations(ctx, plan.operations, FILESYSTEM_RULES);
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
  mcp: {
    tool: 'hub_project_derived_create',
    when: 'Use when gathering parts of other projects.',
  },
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
    writeManifestOperations(ctx, plan.operations, FILESYSTEM_RULES);
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
    writeManifestOperations(ctx, plan.operations, FILESYSTEM_RULES);
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
    writeManifestOperations(ctx, plan.operations, FILESYSTEM_RULES);
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
