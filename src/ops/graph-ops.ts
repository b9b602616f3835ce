import * as z from 'zod';
import { GRAPH_DIRECTIONS } from '../catalog/index.js';
import {
  applySuggestions,
  buildWorkspaceGraph,
  EXPORT_FORMATS,
  type NeighborsResult,
  neighbors,
  type Suggestion,
  suggestRelationships,
  toDot,
  toMermaid,
  type ValidationProblem,
  type WorkspaceEdge,
  type WorkspaceGraph,
  type WorkspaceNode,
} from '../graph/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { externalRepos } from './graph-deps.js';
import { checkParsedManifest } from './manifest-check.js';
import { defineOp, READ_ONLY, WRITES } from './registry.js';

/** Past this many repositories a scan logs its progress (stderr), one line per step. */
const PROGRESS_FROM = 500;
const PROGRESS_STEP = 1000;

const includeFields = {
  include_inferred: cliHelp(
    z.boolean().default(true).describe('Include edges inferred from package files.'),
    'Leave out the edges inferred from package files (npm, Go, Python, Cargo, Maven/Gradle, Helm, submodules).',
  ),
  include_structure: cliHelp(
    z.boolean().default(true).describe('Include project -> repo edges.'),
    'Leave out the project -> repo "contains" edges.',
  ),
};

/** The workspace graph for one request (the organization index's repositories included). */
export function workspaceGraph(
  ctx: OpContext,
  input: { include_inferred: boolean; include_structure: boolean },
): WorkspaceGraph {
  const { catalog } = ctx.workspace();
  const total = catalog.repos.length;
  return buildWorkspaceGraph(catalog, ctx.checkouts(), {
    includeInferred: input.include_inferred,
    includeStructure: input.include_structure,
    external: externalRepos(ctx),
    onRepo:
      total >= PROGRESS_FROM
        ? (done, all) => {
            if (done % PROGRESS_STEP === 0 || done === all)
              ctx.log(`graph: read ${done}/${all} repositories`);
          }
        : undefined,
  });
}

const edgeLine = (e: WorkspaceEdge) => {
  const ev = e.evidence?.[0];
  const proof = ev ? `  (${ev.file}${ev.line !== undefined ? `:${ev.line}` : ''})` : '';
  return `  ${e.from_id} -[${e.type}${e.source === 'manual' ? '' : `, ${e.source}`}]-> ${e.to_id}${proof}`;
};

const nodeLine = (n: WorkspaceNode) =>
  `  ${n.id}${n.presence ? ` [${n.presence}]` : ''}${n.path === undefined && n.kind === 'repo' ? ' (no local path)' : ''}`;

export const graphShow = defineOp({
  id: 'graph.show',
  summary: 'The workspace graph: projects and repositories with manual, inferred and structure edges.',
  description:
    'Manual edges come from graph.relationships, structure edges from the project -> repo layout, inferred ' +
    'edges from package files of checked-out repositories (each with the file and line that proves it). ' +
    'stale_manual lists relationships whose endpoint is gone or that inference contradicts (deprecated ones ' +
    'never). Repositories outside the workspace are not read.',
  input: z.strictObject({ ...includeFields }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): WorkspaceGraph => workspaceGraph(ctx, input),
  cli: {
    command: 'graph',
    human: (g) =>
      [
        `${g.nodes.length} nodes, ${g.edges.length} edges (manual ${g.manual_edge_count}, inferred ${g.inferred_edge_count}, structure ${g.structure_edge_count})`,
        ...g.edges.filter((e) => e.source !== 'structure').map(edgeLine),
        ...(g.stale_manual.length > 0
          ? [
              'stale manual relationships:',
              ...g.stale_manual.map((s) => `  ${s.relationship_id}: ${s.message}`),
            ]
          : []),
      ].join('\n'),
  },
  mcp: { tool: 'hub_graph_show', when: 'Use when you need the whole dependency picture.' },
  http: [{ method: 'GET', route: '/v3/ops/graph', input: 'query' }],
});

export const graphNeighbors = defineOp({
  id: 'graph.neighbors',
  summary: "A node's neighbours in the workspace graph.",
  description:
    'The node is an id (repo:<project>/<repo>, project:<name>), a repository id (<project>/<repo>), an ' +
    'identity (github://org/repo) or a name only one node has; a name that a repository and a project share is ' +
    'the repository, and `note` says so. Direction out, in or both (default both).',
  input: z.strictObject({
    node: z.string().min(1).describe('Node id, repository id, identity or unique name.'),
    depth: z.union([z.number(), z.string()]).optional().describe('Hops (default 1, cap 5).'),
    direction: cliHelp(z.enum(GRAPH_DIRECTIONS).optional(), 'Edge direction to follow (default both).'),
    ...includeFields,
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): NeighborsResult => neighbors(workspaceGraph(ctx, input), input),
  cli: {
    command: 'graph neighbors',
    args: ['node'],
    human: (r) =>
      [
        ...(r.note ? [`note: ${r.note}`] : []),
        `${r.origin} (depth ${r.depth}, ${r.direction})`,
        ...r.nodes.filter((n) => n.id !== r.origin).map((n) => `${nodeLine(n)} at ${n.distance}`),
        ...r.edges.map(edgeLine),
      ].join('\n'),
  },
  mcp: {
    tool: 'hub_graph_neighbors',
    when: 'Use when asking what one repository depends on or feeds.',
  },
  http: [{ method: 'GET', route: '/v3/ops/graph/neighbors', input: 'query' }],
});

interface SuggestResult {
  suggestions: Suggestion[];
  /** Inferred edges a relationship already declares. */
  already_declared: number;
  applied: boolean;
  written: string[];
  validation_errors: ValidationProblem[];
  stale_manual?: WorkspaceGraph['stale_manual'];
}

export const configGraphSuggest = defineOp({
  id: 'config.graph.suggest',
  summary: 'Propose relationships for inferred edges none declares; `apply` writes them.',
  description:
    'With --apply the proposals are appended to graph.relationships (comments and formatting kept). When the ' +
    'patched manifest would fail `config validate`, nothing is written and validation_errors lists why (exit 1). ' +
    '--verbose adds every file line of evidence and the stale manual relationships.',
  input: z.strictObject({
    verbose: z.boolean().optional().describe('Every evidence line, and stale manual relationships.'),
    apply: cliHelp(z.boolean().optional(), 'Write the proposals into graph.relationships.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): SuggestResult => {
    const ws = ctx.workspace();
    const graph = workspaceGraph(ctx, { include_inferred: true, include_structure: false });
    const { suggestions, declared } = suggestRelationships(
      graph,
      ws.file.manifest.graph?.relationships ?? [],
    );
    const shown = input.verbose
      ? suggestions
      : suggestions.map((s) => ({ ...s, evidence: s.evidence.slice(0, 1) }));
    let written: string[] = [];
    let validation_errors: ValidationProblem[] = [];
    if (input.apply) {
      ({ written, validation_errors } = applySuggestions(
        ws.file,
        suggestions.map((s) => s.relationship),
        (patched) => checkParsedManifest(ctx, patched).problems,
      ));
      if (written.length > 0) ctx.invalidate();
    }
    return {
      suggestions: shown,
      already_declared: declared,
      applied: written.length > 0,
      written,
      validation_errors,
      ...(input.verbose ? { stale_manual: graph.stale_manual } : {}),
    };
  },
  cli: {
    command: 'config graph suggest',
    exitCode: (r) => (r.validation_errors.length > 0 ? 1 : 0),
    human: (r) =>
      [
        r.suggestions.length === 0
          ? `no new relationships to propose (${r.already_declared} inferred edge(s) already declared)`
          : `${r.suggestions.length} proposed relationship(s):`,
        ...r.suggestions.flatMap((s) => [
          `  ${s.relationship.id}: ${s.relationship.from.project}/${s.relationship.from.repo} -[${s.relationship.type}]-> ${s.relationship.to.project}/${s.relationship.to.repo}`,
          ...s.evidence.map(
            (e) => `      ${e.file}${e.line !== undefined ? `:${e.line}` : ''}  ${e.ecosystem} ${e.name}`,
          ),
        ]),
        ...(r.stale_manual ?? []).map((s) => `stale: ${s.relationship_id}: ${s.message}`),
        ...(r.applied ? [`wrote ${r.written.length} relationship(s) to graph.relationships`] : []),
        ...(r.validation_errors.length > 0
          ? [
              'nothing written: the patched manifest is invalid:',
              ...r.validation_errors.map(
                (p) => `  ${p.line ? `line ${p.line}: ` : ''}${p.path}: ${p.message} [${p.rule}]`,
              ),
            ]
          : []),
      ].join('\n'),
  },
  mcp: { tool: 'hub_graph_suggest', when: 'Use when the declared graph may be incomplete.' },
  // GET never writes (apply fixed false); POST may apply.
  http: [
    { method: 'GET', route: '/v3/ops/graph/suggest', input: 'query', fixed: { apply: false } },
    { method: 'POST', route: '/v3/ops/graph/suggest', input: 'body' },
  ],
});

interface ExportResult {
  format: (typeof EXPORT_FORMATS)[number];
  node_count: number;
  edge_count: number;
  /** The Mermaid or DOT text (absent for json: the graph is there). */
  text?: string;
  /** json format: the graph itself. */
  graph?: WorkspaceGraph;
}

export const configGraphExport = defineOp({
  id: 'config.graph.export',
  summary: 'Export the workspace graph as JSON, Mermaid or Graphviz DOT.',
  description:
    'Mermaid and DOT draw projects as groups, manual edges solid, inferred dashed, deprecated crossed or grey. ' +
    'Labels from manifests are escaped so they cannot add nodes, edges or handlers.',
  input: z.strictObject({
    format: z.enum(EXPORT_FORMATS).default('json'),
    ...includeFields,
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): ExportResult => {
    const graph = workspaceGraph(ctx, input);
    const counts = { node_count: graph.nodes.length, edge_count: graph.edges.length };
    if (input.format === 'json') return { format: 'json', ...counts, graph };
    return {
      format: input.format,
      ...counts,
      text: input.format === 'dot' ? toDot(graph) : toMermaid(graph),
    };
  },
  cli: {
    command: 'config graph export',
    human: (r) => (r.text ?? JSON.stringify(r.graph, null, 2)).replace(/\n$/, ''),
  },
  mcp: { tool: 'hub_graph_export', when: 'Use when you need it as a diagram or file.' },
  http: [{ method: 'GET', route: '/v3/ops/graph/export', input: 'query' }],
});
