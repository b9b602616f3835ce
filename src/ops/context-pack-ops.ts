import { join } from 'node:path';
import * as z from 'zod';
import { scopeMiss } from '../catalog/index.js';
import {
  buildRepoCard,
  buildSnapshot,
  COMPILE_MAX_DEPTH,
  type ContextPack,
  compileSections,
  EdgeIndex,
  layeredInstructions,
  loadDetect,
  loadTokenCounter,
  MAP_PAGE_MAX,
  openCommitCache,
  type PackDeps,
  packMarkdown,
  pickObjective,
  producePack,
  REPOMIX_PROFILES,
  type Snapshot,
  shellExports,
  stampTokens,
  switchEnv,
  switchPrompt,
  switchTarget,
  type Tier,
} from '../context/index.js';
import { listObjectives, updateSession } from '../coord/index.js';
import type { WorkspaceGraph } from '../graph/index.js';
import { NotFoundError, sha256Hex, ValidationError } from '../infra/index.js';
import { effectiveProfile } from '../profile/index.js';
import { type CompiledContext, recordCompiledContext } from '../taskgraph/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { coordDeps } from './coord-deps.js';
import { cacheDir, readManifestBytes } from './load-workspace.js';
import { defineOp, READ_ONLY, WRITES } from './registry.js';
import { checkScope, scopeFields } from './scope.js';
import { taskScope } from './task-context.js';

const tierField = cliHelp(
  z.coerce.number().int().min(0).max(2).optional().describe('0 map, 1 + repo cards, 2 + recent changes.'),
  '0 map, 1 map + repo cards, 2 + changes since the last session (default: the agent profile tier, else 0).',
);
const maxTokensField = z.coerce
  .number()
  .int()
  .min(1)
  .optional()
  .describe('Token ceiling; sections are dropped to fit.');

const CARD_GRAPH = { include_inferred: true, include_structure: false } as const;

/**
 * The workspace graph of one request, built once on first use: its module loads only when a pack has cards, and
 * the cards ask for it while their git processes run.
 */
function lazyGraph(ctx: OpContext): () => Promise<WorkspaceGraph> {
  let graph: Promise<WorkspaceGraph> | undefined;
  return () => {
    graph ??= import('./graph-ops.js').then((m) => m.workspaceGraph(ctx, CARD_GRAPH));
    return graph;
  };
}

/** The ports a pack needs; the tokenizer import starts here and overlaps the git work. */
export function packDeps(
  ctx: OpContext,
  graph: () => WorkspaceGraph | Promise<WorkspaceGraph> = lazyGraph(ctx),
): PackDeps {
  const ws = ctx.workspace();
  const { store, info } = ctx.store();
  const dir = cacheDir(ctx.env);
  let manifestHash: string | undefined;
  return {
    catalog: ws.catalog,
    store,
    retries: info.conflict_retries,
    now: ctx.now(),
    cache: openCommitCache(dir ? join(dir, 'commit-meta.json') : undefined),
    // Only a digest (tier 2) compares manifests: other packs never read the file again.
    manifestHash: () => {
      manifestHash ??= sha256Hex(readManifestBytes(ws.file.path, ws.file.maxBytes));
      return manifestHash;
    },
    counter: loadTokenCounter(),
    checkouts: ctx.checkouts(),
    graph,
  };
}

function profileTier(ctx: OpContext, project?: string, repo?: string, component?: string): Tier | null {
  if (!project) {
    const m = ctx.workspace().file.manifest;
    return (m.workspace?.agent_profile ?? m.agent_profile)?.tier ?? null;
  }
  return effectiveProfile(ctx.workspace().catalog, { project, repo, component })?.tier ?? null;
}

export const contextPack = defineOp({
  id: 'context.pack',
  summary: 'Token-budgeted context pack of the workspace, as deep as `tier` asks.',
  description:
    "The map pages by --max-map-repos (default 80) and --map-offset. Cards carry the repository's build, test and lint commands and its workspace-graph edges, each with its source. --max-tokens is a hard ceiling on the printed JSON: the digest, then card detail, edges and commands, then cards, then map rows are dropped, and listed in dropped_sections; a budget below the smallest useful pack (the first map row and, from tier 1, the first card) is an error naming the smallest budget that works. Without --json the pack prints as Markdown, a three-line summary at the end. Tier 2 moves the session boundary.",
  input: z.strictObject({
    tier: tierField,
    ...scopeFields,
    max_map_repos: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAP_PAGE_MAX)
      .optional()
      .describe('Repositories per map page (default 80).'),
    map_offset: z.coerce
      .number()
      .int()
      .min(0)
      .optional()
      .describe('First repository of the page (next_offset).'),
    max_tokens: maxTokensField,
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<ContextPack> => {
    checkScope(ctx.workspace().catalog, input.project, input.repo);
    const tier = (input.tier ?? profileTier(ctx, input.project, input.repo) ?? 0) as Tier;
    return producePack(packDeps(ctx), {
      tier,
      project: input.project,
      repo: input.repo,
      mapLimit: input.max_map_repos,
      mapOffset: input.map_offset,
      maxTokens: input.max_tokens,
    });
  },
  cli: { command: 'context pack', human: (p) => packMarkdown(p) },
  mcp: {
    tool: 'hub_context_pack',
    when: 'Use when you need a workspace map within a budget.',
  },
  http: [{ method: 'POST', route: '/v3/ops/context/pack', input: 'body' }],
});

export const repoCard = defineOp({
  id: 'context.repo-card',
  summary:
    'One repository card: git state, stack, health, CI, tags, instructions, commands and cross-repo edges.',
  input: z.strictObject({
    project: cliHelp(z.string().min(1), 'Project name.'),
    repo: cliHelp(z.string().min(1), 'Repository name.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input) => {
    const { catalog } = ctx.workspace();
    const repo = catalog.repoById.get(`${input.project}/${input.repo}`);
    if (!repo) {
      const miss = scopeMiss(catalog, input.project, input.repo, {
        project: 'unknown_project',
        repo: 'unknown_repository',
      });
      throw new NotFoundError(miss.message, miss.details);
    }
    const deps = packDeps(ctx);
    const card = await buildRepoCard(catalog, repo, {
      now: deps.now,
      cache: deps.cache,
      checkouts: deps.checkouts,
      graph: deps.graph,
    });
    deps.cache.save();
    const place = ctx.checkouts().of(repo);
    // The repository's atlas, when it has one: what its .atlas/ knows, never a reason for the card to fail.
    const atlas =
      place.state === 'present'
        ? (await import('../atlas/index.js')).atlasMention(place.dir, '.')
        : undefined;
    const out = { ...card, ...(atlas ? { atlas } : {}), token_estimate: 0 };
    stampTokens(await deps.counter, out);
    return out;
  },
  cli: {
    command: 'context repo-card',
    human: (c) =>
      [
        `${c.project}/${c.repo}  ${c.status}  ${c.branch ?? '-'}${c.dirty ? ' (dirty)' : ''}`,
        `path: ${c.path}`,
        c.stack_hints.length
          ? `stack: ${c.stack_hints.map((h) => (typeof h === 'string' ? h : h.stack)).join(', ')}`
          : '',
        c.health_flags.length ? `flags: ${c.health_flags.join(', ')}` : '',
        c.ci ? `ci: ${c.ci.provider ?? '?'} ${c.ci.config ?? ''}`.trimEnd() : '',
        c.atlas
          ? `atlas: ${
              c.atlas.error ??
              (Object.entries(c.atlas.counts)
                .map(([k, n]) => `${n} ${k}`)
                .join(', ') ||
                'no entities')
            }`
          : '',
      ]
        .filter(Boolean)
        .join('\n'),
  },
  mcp: { tool: 'hub_repo_card', when: 'Use when you need the state of one repository.' },
  http: [{ method: 'GET', route: '/v3/ops/context/repo-card', input: 'query' }],
});

export const contextCompile = defineOp({
  id: 'context.compile',
  summary: 'Compile a context pack for a project/repo, a `component` or a task node.',
  description: `An unknown component, or a three-segment id that disagrees with --project/--repo, is an error (no fallback to the repository). Depth defaults to 0 and is capped at ${COMPILE_MAX_DEPTH}. --budget is the pack's token ceiling. With --task-id (and --graph-id when the node id is in several graphs) the task graph node decides: its repository is the scope (--project/--repo may be left out, and must agree when given), its context_budget is the budget unless --budget, and a task section carries the node, its graph's goal and acceptance and the graph's objective; the pack is recorded in task-contexts/<graph>~<node> and summarized on the node as compiled_context.`,
  input: z.strictObject({
    project: z.string().min(1).optional().describe("Default: the task node's."),
    repo: z.string().min(1).optional().describe("Default: the task node's."),
    component: z.string().min(1).optional().describe('Component name or <project>/<repo>/<component> id.'),
    depth: z
      .union([z.number(), z.string()])
      .optional()
      .describe(`Graph hops around the component (default 0, cap ${COMPILE_MAX_DEPTH}).`),
    tier: tierField,
    budget: z.coerce.number().int().min(1).optional().describe('Token ceiling.'),
    task_id: cliHelp(z.string().min(1).optional(), 'Task graph node the pack is for.'),
    graph_id: z.string().min(1).optional().describe('Its graph, when `task_id` is in several.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<ContextPack & { compiled_context?: CompiledContext }> => {
    const { catalog } = ctx.workspace();
    const task = await taskScope(ctx, input);
    const project = task?.project ?? input.project;
    const repo = task?.repo ?? input.repo;
    if (project === undefined || repo === undefined)
      throw new ValidationError(
        `${project === undefined ? 'project' : 'repo'}: required (or --task-id of a node with a repository)`,
        {
          field: project === undefined ? 'project' : 'repo',
          rule: 'required',
        },
      );
    // Every rule is checked before any git work: a bad component never yields the repository's pack. The graph
    // (for the component's neighbours and the card's edges) is built once, and only when something reads it.
    const graphOps = await import('./graph-ops.js');
    let graph: WorkspaceGraph | undefined;
    const graphOnce = () => {
      graph ??= graphOps.workspaceGraph(ctx, CARD_GRAPH);
      return graph;
    };
    const repoEntry = catalog.repoById.get(`${project}/${repo}`);
    const place = repoEntry ? ctx.checkouts().of(repoEntry) : undefined;
    const compiled = compileSections(
      catalog,
      { ...input, project, repo, graph_id: task?.graph.graph_id },
      {
        dir: place?.state === 'present' ? place.dir : undefined,
        edges: () => new EdgeIndex(graphOnce()),
        detect: await loadDetect(),
      },
    );
    const sections = task
      ? [...compiled.sections.filter((s) => s.key !== 'task'), task.section]
      : compiled.sections;
    if (compiled.component && place?.state === 'present') {
      // The atlas entities of the component's folder, when the repository keeps a .atlas/.
      const c = catalog.components.find((x) => x.id === compiled.component);
      const atlas = (await import('../atlas/index.js')).atlasMention(place.dir, c?.path ?? '.');
      if (atlas) sections.push({ key: 'atlas', value: atlas, droppable: true });
    }
    const component = compiled.component?.split('/')[2];
    const tier = (input.tier ?? profileTier(ctx, project, repo, component) ?? 1) as Tier;
    const budget = task ? task.budget : input.budget;
    const pack = await producePack(packDeps(ctx, graphOnce), {
      tier,
      project,
      repo,
      maxTokens: budget,
      budgetField: task && input.budget === undefined ? 'context_budget' : 'budget',
      sections,
    });
    if (!task) return pack;
    const compiled_context = await recordCompiledContext(coordDeps(ctx), {
      graph_id: task.node.graph_id,
      node_id: task.node.node_id,
      pack,
      estimated_tokens: pack.token_estimate,
      tier,
      budget: budget ?? null,
    });
    return { ...pack, compiled_context };
  },
  cli: {
    command: 'context compile',
    human: (p) =>
      packMarkdown(p) + (p.compiled_context ? `\nrecorded on the node: ${p.compiled_context.document}` : ''),
  },
  mcp: {
    tool: 'hub_context_compile',
    when: 'Use when starting on a task node or component.',
  },
  http: [{ method: 'POST', route: '/v3/ops/context/compile', input: 'body' }],
});

const switchInput = {
  project: cliHelp(z.string().min(1), 'Project to switch to.'),
  tier: tierField,
  max_tokens: maxTokensField,
};

async function runSwitch(
  ctx: OpContext,
  input: { project: string; repo?: string; tier?: number; max_tokens?: number },
) {
  const { catalog } = ctx.workspace();
  const target = switchTarget(catalog, input.project, input.repo);
  const profile = effectiveProfile(catalog, { project: input.project, repo: input.repo });
  const tier = (input.tier ?? profile?.tier ?? 1) as Tier;
  const deps = packDeps(ctx);
  await updateSession(deps.store, { project: input.project }, { now: deps.now, retries: deps.retries });
  const pack = await producePack(deps, {
    tier,
    project: input.project,
    repo: input.repo,
    maxTokens: input.max_tokens,
  });
  const objectives = await listObjectives(coordDeps(ctx));
  const objective = pickObjective(catalog, objectives, input.project, input.repo);
  const env = switchEnv(catalog, input.project, input.repo);
  const card = input.repo
    ? pack.cards.find((c) => c.project === input.project && c.repo === input.repo)
    : undefined;
  const slug = `${input.project}${input.repo ? `-${input.repo}` : ''}`.toLowerCase();
  const refs = input.repo ? [`${input.project}/${input.repo}`] : target.repos.map((r) => r.id);
  return {
    ok: true as const,
    project: input.project,
    repo: input.repo ?? null,
    path: target.repo?.root ?? null,
    env,
    exports: shellExports(env),
    objective,
    ...(objective
      ? {}
      : {
          objective_suggestion: {
            id: slug,
            title: `Work on ${input.repo ? `${input.project}/${input.repo}` : input.project}`,
            repos: refs.slice(0, 20),
            command: `hub context objective set --id ${slug} --title 'Work on ${input.repo ? `${input.project}/${input.repo}` : input.project}'${input.repo ? ` --repos ${input.project}/${input.repo}` : ''}`,
          },
        }),
    prompt: switchPrompt({
      project: input.project,
      repo: input.repo,
      path: target.repo?.root,
      instructions: layeredInstructions(catalog, input.project, input.repo),
      objective,
      profile,
      tier,
      commands: card?.commands,
      edges: card?.edges,
    }),
    effective_profile: profile,
    pack,
  };
}

type SwitchResult = Awaited<ReturnType<typeof runSwitch>>;
const switchHuman = (r: SwitchResult) =>
  `${r.exports}\n${r.prompt
    .split('\n')
    .map((l) => `# ${l}`)
    .join('\n')}`;

export const contextSwitch = defineOp({
  id: 'context.switch',
  summary: 'Switch to a project (and repo): its context pack, prompt and objective.',
  description:
    'Human output is shell: `eval "$(hub context switch <project> <repo>)"` sets HUB_PROJECT, HUB_REPO and HUB_REPO_PATH; the prompt follows as comments. Records the project on the session (the boundary stays unless the tier is 2).',
  input: z.strictObject({
    ...switchInput,
    repo: cliHelp(z.string().min(1).optional(), 'Repository of the project to switch to.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input) => runSwitch(ctx, input),
  cli: { command: 'context switch', args: ['project', 'repo'], human: (r) => switchHuman(r) },
  mcp: { tool: 'hub_context_switch', when: 'Use when moving to another project or repository.' },
  http: [{ method: 'POST', route: '/v3/ops/context/switch', input: 'body' }],
});

export const projectContextSwitch = defineOp({
  id: 'context.project-switch',
  summary: 'Switch to a whole project: its context pack, prompt and objective.',
  input: z.strictObject(switchInput),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input) => runSwitch(ctx, input),
  mcp: { tool: 'hub_project_context_switch', when: 'Use when moving to a whole project.' },
  http: [{ method: 'POST', route: '/v3/ops/context/project-switch', input: 'body' }],
});

export const contextRepomix = defineOp({
  id: 'context.repomix',
  summary:
    'Scoped snapshot of one repository: files its profile picks (.gitignore honoured), under a token ceiling.',
  description:
    'Profiles: bugfix-local (uncommitted and recently changed source, then tests and source), config-edit (configuration, CI, build manifests), cross-repo-impact (API contracts, package manifests, entry points, and the relationships crossing the repository). Human output is the packed text; --max-tokens (default 20000, max 200000) bounds its exact token count.',
  input: z.strictObject({
    profile: z.enum(REPOMIX_PROFILES).describe('Which files to pick.'),
    project: z.string().min(1).describe('Project name.'),
    repo: z.string().min(1).describe('Repository name.'),
    component: z.string().min(1).optional().describe('Only files under this component.'),
    max_tokens: z.coerce
      .number()
      .int()
      .min(64)
      .max(200_000)
      .optional()
      .describe('Token ceiling of the packed text (default 20000).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): Promise<Snapshot> =>
    buildSnapshot(
      ctx.workspace().catalog,
      loadTokenCounter(),
      {
        profile: input.profile,
        project: input.project,
        repo: input.repo,
        component: input.component,
        maxTokens: input.max_tokens,
      },
      ctx.checkouts(),
    ),
  cli: { command: 'context repomix', human: (s) => s.text },
  http: [{ method: 'GET', route: '/v3/ops/context/repomix', input: 'query' }],
});
