import * as z from 'zod';
import {
  appendComponents,
  appendComponentsToRepos,
  type Candidate,
  CHART_PARENTS,
  checkApplicable,
  componentGraph,
  componentView,
  detectInRepo,
  draftComponent,
  findComponent,
  GRAPH_DIRECTIONS,
  type GraphResult,
  HIGH_CONFIDENCE_MARKERS,
  KIND_HINTS,
  MARKER_LANGUAGES,
  type RepoDrafts,
  type ResolveResult,
  ROLE_DIRS,
  resolveComponent,
  SKIP_DIRS,
} from '../catalog/index.js';
import { RefusedError } from '../infra/index.js';
import { cliHelp } from './cli-help.js';
import { keyValues, table, withFooter } from './format.js';
import { type PageInfo, pageFields, pageFooter, pageOf } from './paging.js';
import { defineOp, READ_ONLY, WRITES } from './registry.js';
import { checkScope, readableRepos, scopeFields } from './scope.js';

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

/** What detect looks for, from the rules themselves so that --help never drifts from them. */
const DETECT_HELP = [
  `Looks for marker files in every checked-out repository (6 levels deep; ${[...SKIP_DIRS].join(', ')} and hidden folders skipped): ${[...HIGH_CONFIDENCE_MARKERS, '*.csproj'].join(', ')}, and ${CHART_PARENTS.map((p) => `${p}/<name>/Chart.yaml`).join(', ')} (Helm charts: infrastructure).`,
  `Kind from the nearest folder on the path: ${Object.entries(KIND_HINTS)
    .map(([dir, kind]) => `${dir}/ ${kind}`)
    .join(', ')} (cmd/<name> with its go.mod is a Go command); else from the markers: a package.json bin ` +
    'without main/exports cli, a private one application, else library; a Go main package (or a cmd/ folder) ' +
    'application, else library; a library crate library, a binary crate application; a Python distribution ' +
    'library; a Maven war application, jar library; the Gradle application plugin application; a .csproj with ' +
    'an Exe output application, else library; else unknown.',
  `The language comes from the marker: ${Object.entries(MARKER_LANGUAGES)
    .map(([m, l]) => `${m} ${l}`)
    .join(', ')} (typescript with a tsconfig.json beside it).`,
  'The repository root is a candidate when its markers name a package that is not only a workspace root (a ' +
    'private package.json with workspaces or a pnpm-workspace.yaml, lerna.json or rush.json beside it, a Cargo ' +
    '[workspace] without [package], a uv workspace, a Maven pom aggregator, a Gradle build that only includes ' +
    'sub-projects); an unnamed root only when nothing inside is a candidate. A package.json that declares ' +
    'nothing (only "type") is no candidate.',
  `Candidates at or below ${[...new Set(Object.keys(ROLE_DIRS))].map((d) => `${d}/`).join(', ')} carry a role (example, benchmark, fuzz, test), written as the tag role.`,
  'Already catalogued paths are marked and skipped; --apply writes every new candidate in one edit of the manifest, and one that would write nothing (no candidate, or every one catalogued) is an error.',
].join('\n');

export const componentDetect = defineOp({
  id: 'component.detect',
  summary: 'Find component candidates from marker files; `apply` writes them.',
  description: DETECT_HELP,
  input: z.strictObject({
    ...scopeFields,
    apply: z.boolean().optional().describe('Write new candidates into the manifest.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): { candidates: Candidate[]; applied: boolean; written: string[] } => {
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project, input.repo);
    // A repository outside the workspace is not scanned (refused when named with --repo).
    const readable = readableRepos(catalog, ctx.checkouts(), input.project, input.repo).repos;
    const repos = readable.map((r) => r.repo);
    const candidates = readable.flatMap((r) => (r.present ? detectInRepo(catalog, r.repo, r.root) : []));
    const written: string[] = [];
    if (input.apply) {
      // An apply that writes nothing is never a silent success: a script or agent must see it did nothing.
      const fresh = candidates.filter((c) => !c.already_catalogued);
      if (fresh.length === 0) {
        const skipped = candidates.map((c) => `${c.project}/${c.repo}/${c.name}`);
        throw new RefusedError(
          candidates.length === 0
            ? 'nothing to apply: no candidate found (see hub component detect --help for what it looks for)'
            : `nothing to apply: every candidate (${candidates.length}) is already catalogued`,
          { rule: 'nothing_to_apply', candidates: candidates.length, skipped: skipped.slice(0, 50) },
          409,
        );
      }
      const groups: RepoDrafts[] = [];
      for (const repo of repos) {
        const drafts = fresh.filter((c) => c.project === repo.project && c.repo === repo.name);
        if (drafts.length === 0) continue;
        groups.push({ repo, drafts });
        written.push(...drafts.map((c) => `${repo.id}/${c.name}`));
      }
      // One edit of the manifest for every repository: one write, and nothing written when any part fails.
      appendComponentsToRepos(catalog, groups);
      if (written.length > 0) ctx.invalidate();
    }
    return { candidates, applied: written.length > 0, written };
  },
  cli: {
    command: 'component detect',
    aliases: ['detect'],
    human: (r) =>
      `${table(
        r.candidates.map((c) => [
          `${c.project}/${c.repo}`,
          c.path,
          c.role ? `${c.kind} (${c.role})` : c.kind,
          c.markers.join(','),
          c.already_catalogued ? 'catalogued' : 'new',
        ]),
        ['REPO', 'PATH', 'KIND', 'MARKERS', 'STATUS'],
      )}${r.applied ? `\nwrote ${r.written.length} component(s)` : ''}`,
  },
  mcp: { tool: 'hub_component_detect', when: 'Use when the catalog lacks components.' },
  // The spec's GET detect never writes: apply stays false on HTTP (the CLI and MCP may apply).
  http: [{ method: 'GET', route: '/v3/ops/components/detect', input: 'query', fixed: { apply: false } }],
});

export const componentInit = defineOp({
  id: 'component.init',
  summary: 'Draft a component for a directory; `apply` writes it to the manifest.',
  input: z.strictObject({
    path: z.string().min(1).describe('Repo-relative or absolute directory.'),
    name: z.string().min(1).optional().describe('Default: the basename of `path`.'),
    kind: z.string().min(1).optional().describe('Default: from the directory, else unknown.'),
    ...scopeFields,
    apply: cliHelp(z.boolean().optional(), 'Write the component into repos[].components[].'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input) => {
    const { catalog } = ctx.workspace();
    const { repo, draft, problem } = draftComponent(catalog, input, ctx.checkouts());
    if (input.apply) {
      if (repo.kind === 'application') {
        throw new RefusedError('cannot apply to an application manifest with no workspace repos', {
          repository: repo.id,
          rule: 'application_manifest',
        });
      }
      checkApplicable(repo, draft, problem);
      appendComponents(catalog, repo, [draft]);
      ctx.invalidate();
    }
    return {
      id: `${repo.id}/${draft.name}`,
      project: repo.project,
      repo: repo.name,
      component: draft,
      applied: Boolean(input.apply),
      // What `config validate` would say once written; apply refuses while there is one.
      warnings: problem ? [`${problem.message}: create it before --apply`] : [],
    };
  },
  cli: {
    command: 'component init',
    args: ['path'],
    human: (r) =>
      [
        `${r.applied ? 'added' : 'draft (pass --apply to write)'}: ${r.id}  path=${r.component.path} kind=${r.component.kind}`,
        ...r.warnings.map((w) => `warning: ${w}`),
      ].join('\n'),
  },
  mcp: { tool: 'hub_component_init', when: 'Use when cataloguing one directory.' },
  http: [{ method: 'POST', route: '/v3/ops/components/init', input: 'body' }],
});
