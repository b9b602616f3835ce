import { join } from 'node:path';
import * as z from 'zod';
import {
  type AgentDir,
  buildTerrain,
  openActivityCache,
  TERRAIN_DEFAULT_LIMIT,
  TERRAIN_DETAILS,
  TERRAIN_MAX_LIMIT,
  type TerrainNode,
  type TerrainResult,
} from '../terrain/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { table } from './format.js';
import { cacheDir } from './load-workspace.js';
import { defineOp, READ_ONLY } from './registry.js';
import { checkScope } from './scope.js';
import { inferredDependencySource } from './terrain-inferred.js';

/** Where each coding-agent vendor keeps a repository's agents (the agents room, loaded only for enriched terrain). */
async function agentDirs(): Promise<AgentDir[]> {
  const { VENDORS } = await import('../agents/index.js');
  return Object.values(VENDORS).map((v) => ({
    vendor: v.id,
    dir: v.projectDir,
    kind: v.kind,
    ...(v.agentSuffix ? { suffix: v.agentSuffix } : {}),
  }));
}

/** Progress of long terrain work as plain lines (stderr on the CLI): at most one per quarter, only past 200 repositories. */
function progressLines(ctx: OpContext): (done: number, total: number) => void {
  let shown = 0;
  return (done, total) => {
    if (total < 200) return;
    const quarter = Math.floor((done / total) * 4);
    if (quarter <= shown) return;
    shown = quarter;
    ctx.log(`terrain: git status ${done}/${total} repositories`);
  };
}

function gitCell(n: TerrainNode): string {
  const g = n.git;
  if (!g) return n.is_git_repo === false ? '(not git)' : '-';
  if (g.error) return `error: ${g.error}`;
  const ab = g.ahead === null ? '' : ` +${g.ahead}/-${g.behind}`;
  const dirty = g.dirty ? ` *${g.uncommitted_count}` : '';
  const conflicts = g.merge_conflicts ? ` !${g.merge_conflicts} conflicts` : '';
  return `${g.branch ?? (g.detached_head ? '(detached)' : '-')}${ab}${dirty}${conflicts}`;
}

function terrainHuman(r: TerrainResult): string {
  const rows = r.nodes.map((n) => [
    n.repo_id,
    n.visual.state,
    gitCell(n),
    n.activity?.level ?? '-',
    (n.ci.detected ?? (n.ci.declared?.provider ? [n.ci.declared.provider] : [])).join(',') || '-',
    n.agent.readiness ?? '-',
    n.ownership?.key ?? '-',
  ]);
  const head = ['REPO', 'STATE', 'GIT', 'ACTIVITY', 'CI', 'AGENT', 'OWNER'];
  const page = `${r.node_count} of ${r.total} repositories (${r.detail_level})`;
  const next = r.next_offset !== null ? `; next page: --offset ${r.next_offset}` : '';
  return `${table(rows, head)}\n${page}, ${r.dependencies.length} dependency arcs${next}`;
}

export const workspaceTerrain = defineOp({
  id: 'workspace.terrain',
  summary: 'One row per repository (git state, activity, CI, agent readiness) and a layout.',
  description:
    '--detail manifest reads only the manifest and whether each checkout folder exists (no git, no CI file): ' +
    'what a page draws first. --detail enriched (default) adds, per checkout, one `git status --porcelain=v2 ' +
    '--branch` (branch, ahead/behind its upstream, dirty counts, merge conflicts; run in batches, --parallel at ' +
    'once, default two per core), commit activity (from a cache by head commit, else one `git log`), the CI beacon ' +
    '(CI files present, against the manifest `ci`), agent readiness (AGENTS.md, CLAUDE.md, llms.txt, installed ' +
    'agents) and ownership from tags. --include-pipelines names what each CI file defines; run status is never ' +
    `fetched (no network). Pages of --limit repositories (default ${TERRAIN_DEFAULT_LIMIT}, max ${TERRAIN_MAX_LIMIT}); ` +
    'the layout and regions always cover every repository in scope.',
  input: z.strictObject({
    project: cliHelp(z.string().min(1).optional(), 'Project name; only its repositories.'),
    detail: z.enum(TERRAIN_DETAILS).default('enriched').describe('manifest: no git or CI reads.'),
    include_pipelines: z.boolean().default(false).describe('Name the workflows and jobs of each CI file.'),
    include_inferred: cliHelp(
      z
        .boolean()
        .default(true)
        .describe('Include dependency arcs inferred from package files (enriched only).'),
      'Declared dependency arcs only (no arcs inferred from package manifests).',
    ),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(TERRAIN_MAX_LIMIT)
      .optional()
      .describe(`Repositories per page (default ${TERRAIN_DEFAULT_LIMIT}).`),
    offset: cliHelp(
      z.coerce.number().int().min(0).optional(),
      'Repositories to skip (next_offset of the last page).',
    ),
    parallel: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .optional()
      .describe('git processes at once (default two per CPU core).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<TerrainResult> => {
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project);
    const enriched = input.detail === 'enriched';
    const dir = cacheDir(ctx.env);
    return buildTerrain(catalog, {
      detail: input.detail,
      project: input.project,
      offset: input.offset,
      limit: input.limit,
      includePipelines: input.include_pipelines,
      includeInferred: input.include_inferred,
      checkouts: ctx.checkouts(),
      now: ctx.now(),
      parallel: input.parallel,
      ...(enriched
        ? {
            agentDirs: await agentDirs(),
            activityCache: openActivityCache(dir ? join(dir, 'terrain-activity.json') : undefined),
            inferred: inferredDependencySource(ctx),
            onProgress: progressLines(ctx),
          }
        : {}),
    });
  },
  cli: { command: 'workspace terrain', human: (r) => terrainHuman(r) },
  mcp: {
    tool: 'hub_workspace_terrain',
    when: 'Use when you need an overview of every repository.',
  },
  http: [{ method: 'GET', route: '/v3/ops/terrain', input: 'query' }],
});
