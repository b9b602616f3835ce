import * as z from 'zod';
import {
  componentGraph,
  componentView,
  findComponent,
  GRAPH_DIRECTIONS,
  type GraphResult,
  type ResolveResult,
  resolveComponent,
} from '../catalog/index.js';
import { cliHelp } from './cli-help.js';
import { keyValues, table, withFooter } from './format.js';
import { type PageInfo, pageFields, pageFooter, pageOf } from './paging.js';
import { defineOp, READ_ONLY } from './registry.js';
import { checkScope, scopeFields } from './scope.js';

type View = Record<string, unknown>;

export const componentList = defineOp({
  id: 'component.list',
  summary: 'List catalogued components, optionally of one project or repository.',
  description:
    "Components in manifest order (projects, their repositories, then each repository's components as declared), " +
    'a page at a time: --limit and --offset; total counts every match and next_offset names the next page ' +
    '(null on the last).',
  input: z.strictObject({ ...scopeFields, ...pageFields('Components') }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): { components: View[] } & PageInfo => {
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project, input.repo);
    const matching = catalog.components.filter(
      (c) => (!input.project || c.project === input.project) && (!input.repo || c.repo === input.repo),
    );
    // Only the page is turned into views: at 50,000 components the rest would be built to be thrown away.
    const { items, page } = pageOf(ctx, input, matching);
    return { components: items.map(componentView), ...page };
  },
  cli: {
    command: 'component list',
    human: (r) =>
      withFooter(
        table(
          r.components.map((c) => [String(c.id), String(c.kind ?? '-'), String(c.path)]),
          ['ID', 'KIND', 'PATH'],
        ),
        pageFooter(r.components.length, r, 'components'),
      ),
  },
  mcp: { tool: 'hub_component_list', when: 'Use when asking which components exist.' },
  http: [{ method: 'GET', route: '/v3/ops/components', input: 'query' }],
});

export const componentShow = defineOp({
  id: 'component.show',
  summary: 'Show one component by name or <project>/<repo>/<component> id.',
  input: z.strictObject({
    component: z.string().min(1).describe('Component name or full id.'),
    ...scopeFields,
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): { component: View } => {
    const { catalog } = ctx.workspace();
    const c = findComponent(catalog, input.component, input);
    const repo = catalog.repoById.get(`${c.project}/${c.repo}`)!;
    const dependents = (catalog.componentsByRepo.get(repo.id) ?? [])
      .filter((o) => o.depends_on.includes(c.name))
      .map((o) => o.id);
    return {
      component: {
        ...componentView(c),
        directory: c.path === '.' ? repo.root : `${repo.root}/${c.path}`,
        dependents,
      },
    };
  },
  cli: { command: 'component show', args: ['component'], human: (r) => keyValues(r.component) },
  mcp: {
    tool: 'hub_component_show',
    when: 'Use when you need its directory and dependencies.',
  },
});

export const componentResolve = defineOp({
  id: 'component.resolve',
  summary: 'Map a path to the most specific component containing it (a miss: matched false).',
  input: z.strictObject({
    path: z.string().describe('Repo-relative or filesystem path.'),
    ...scopeFields,
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): ResolveResult => {
    const ws = ctx.workspace();
    const base = ws.explicitDefinition ? ws.file.root : ctx.cwd;
    return resolveComponent(ws.catalog, { ...input, base });
  },
  cli: {
    command: 'component resolve',
    args: ['path'],
    human: (r) =>
      r.matched ? `${r.id}  (${r.repository}: ${r.relative_path})` : `no component contains ${r.path}`,
  },
  mcp: {
    tool: 'hub_component_resolve',
    when: 'Use when you hold a file path.',
  },
  http: [{ method: 'GET', route: '/v3/ops/components/resolve', input: 'query' }],
});

export const componentGraphOp = defineOp({
  id: 'component.graph',
  summary: 'Neighbourhood of a component over declared relationships and depends_on.',
  description: 'Depth defaults to 1 and is capped at 5; direction out, in or both (default both).',
  input: z.strictObject({
    component: z.string().min(1).describe('Component name or full id.'),
    ...scopeFields,
    // Raw number or string, checked by parseDepth so every surface gets the same message.
    depth: z.union([z.number(), z.string()]).optional().describe('Hops (default 1, cap 5).'),
    direction: cliHelp(z.enum(GRAPH_DIRECTIONS).optional(), 'Edge direction to follow (default both).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): GraphResult => componentGraph(ctx.workspace().catalog, input),
  cli: {
    command: 'component graph',
    args: ['component'],
    human: (r) =>
      [
        `${r.origin} (depth ${r.depth}, ${r.direction})`,
        ...r.edges.map(
          (e) =>
            `  ${e.from} -[${e.type}]-> ${e.to}${e.origin === 'declared' ? ` (declared ${e.relationship_id})` : ''}`,
        ),
      ].join('\n'),
  },
  mcp: {
    tool: 'hub_component_graph',
    when: 'Use when asking what a change would affect.',
  },
  http: [{ method: 'GET', route: '/v3/ops/components/graph', input: 'query' }],
});
