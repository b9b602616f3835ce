import * as z from 'zod';
import { checkAgentId } from '../acl/index.js';
import {
  checkPromptInputs,
  checkTask,
  handoffOf,
  PROMPTS,
  type PromptSpec,
  promptSpec,
  repoOf,
  sessionStartPrompt,
  taskDispatchPrompt,
} from '../agents/index.js';
import { layeredInstructions, pickObjective, switchPrompt, switchTarget } from '../context/index.js';
import { listApprovals, listHandoffs, listObjectives, resumeObjective } from '../coord/index.js';
import { composeInstructions, effectiveProfile, instructionLayers } from '../profile/index.js';
import { readNode } from '../taskgraph/index.js';
import { definitionArgs, dispatchScopes, dispatchTemplate, foreignClaims } from './agent-dispatch-deps.js';
import type { OpContext } from './context.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import { defineOp, READ_ONLY } from './registry.js';

type ShowInput = {
  name: string;
  project?: string;
  repo?: string;
  component?: string;
  task?: string;
  template?: string;
  agent_id?: string;
  task_id?: string;
  graph_id?: string;
};

async function sessionStart(ctx: OpContext): Promise<string> {
  const ws = ctx.workspace();
  const deps = coordDeps(ctx);
  const [resume, handoffs, approvals] = await Promise.all([
    resumeObjective(deps),
    listHandoffs(deps, 'open'),
    listApprovals(deps, 'pending'),
  ]);
  return sessionStartPrompt({
    workspaceName: ws.file.manifest.workspace?.name ?? ws.file.manifest.name ?? 'this workspace',
    root: ws.file.root,
    projects: new Set(ws.catalog.repos.map((r) => r.project)).size,
    repositories: ws.catalog.repos.length,
    components: ws.catalog.components.length,
    objective: resume.objective,
    handoffs: handoffs.handoffs,
    approvals,
  });
}

async function repoHandoff(ctx: OpContext, i: ShowInput): Promise<string> {
  const { catalog } = ctx.workspace();
  const repo = repoOf(catalog, i.project!, i.repo!);
  const t = i.template === undefined ? undefined : dispatchTemplate(ctx, i.template);
  const scopes = dispatchScopes(ctx, repo);
  const h = handoffOf(catalog, {
    project: i.project,
    repo: i.repo,
    component: i.component,
    task: (i.task === undefined ? '' : checkTask(i.task)) || t?.label || `Work in ${repo.id}`,
    agentId: i.agent_id,
    agent: t && { id: t.id, label: t.label, delegates_to: t.delegates_to, limits: t.limits },
    claims: await foreignClaims(ctx, repo, i.agent_id),
    path: scopes.project.base ?? null,
    definitionArgs: definitionArgs(ctx, scopes.project.base),
  });
  return h.prompt!;
}

async function taskDispatch(ctx: OpContext, i: ShowInput): Promise<string> {
  const deps = coordDeps(ctx);
  const { graph, node } = await readNode(deps, { graph_id: i.graph_id, node_id: i.task_id! });
  const objective =
    graph.objective_id === undefined
      ? null
      : ((await listObjectives(deps)).find((o) => o.id === graph.objective_id) ?? null);
  const [project, repo] = node.repository?.split('/') ?? [];
  const known = project && repo && ctx.workspace().catalog.repoById.has(`${project}/${repo}`);
  return taskDispatchPrompt({
    graph,
    node,
    objective,
    acl: node.acl ?? null,
    agentId: i.agent_id,
    instructions: known
      ? composeInstructions(instructionLayers(ctx.workspace().catalog, { project: project!, repo }))
      : '',
  });
}

/** The context-switch prompt as `context switch` prints it, without switching (no session write). */
async function contextSwitch(ctx: OpContext, i: ShowInput): Promise<string> {
  const { catalog } = ctx.workspace();
  const target = switchTarget(catalog, i.project!, i.repo);
  const profile = effectiveProfile(catalog, { project: i.project!, repo: i.repo });
  return switchPrompt({
    project: i.project!,
    repo: i.repo,
    path: target.repo?.root,
    instructions: layeredInstructions(catalog, i.project!, i.repo),
    objective: pickObjective(catalog, await listObjectives(coordDeps(ctx)), i.project!, i.repo),
    profile,
    tier: profile?.tier ?? 1,
  });
}

const RENDER: Record<string, (ctx: OpContext, i: ShowInput) => Promise<string>> = {
  'session-start': (ctx) => sessionStart(ctx),
  'repo-handoff': repoHandoff,
  'task-dispatch': taskDispatch,
  'context-switch': contextSwitch,
};

const text = (max: number, what: string) => z.string().min(1).max(max).optional().describe(what);

export const promptList = defineOp({
  id: 'prompt.list',
  summary: 'The prompts hub generates and what each needs.',
  input: z.strictObject({}),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (): { prompts: readonly PromptSpec[] } => ({ prompts: PROMPTS }),
  cli: {
    command: 'prompt list',
    human: (r) =>
      table(
        r.prompts.map((p) => [
          p.name,
          [...p.required, ...p.optional.map((o) => `[${o}]`)].join(' ') || '-',
          p.summary,
        ]),
        ['NAME', 'INPUTS', 'WHAT IT IS'],
      ),
  },
  mcp: { tool: 'hub_prompt_list', when: 'Use when choosing a prompt to show.' },
  http: [{ method: 'GET', route: '/v3/agents/prompts', input: 'query' }],
});

export const promptShow = defineOp({
  id: 'prompt.show',
  summary: 'Print a prompt hub generates, to read or reuse.',
  description:
    'The same text hub hands to agents: session-start is the MCP prompt hub_session_start; repo-handoff is the hand-off of agent dispatch-plan (with --template, the same agent and limits); task-dispatch gives a task graph node (--task-id, --graph-id) to an agent; context-switch is the prompt of context switch, printed without switching. Inputs a prompt does not take are refused. Reads only.',
  input: z.strictObject({
    name: z
      .string()
      .min(1)
      .max(100)
      .describe(`Prompt: ${PROMPTS.map((p) => p.name).join(', ')}.`),
    project: text(200, 'Project (repo-handoff, context-switch).'),
    repo: text(200, 'Repository (repo-handoff, context-switch).'),
    component: text(200, 'Component of the repository (repo-handoff).'),
    task: z.string().optional().describe('Task label, one line (repo-handoff).'),
    template: text(200, 'Agent template the hand-off is for (repo-handoff).'),
    agent_id: text(200, 'Agent id put in the commands (repo-handoff, task-dispatch).'),
    task_id: text(200, 'Task graph node (task-dispatch).'),
    graph_id: text(200, "The node's graph, if ambiguous (task-dispatch)."),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<{ name: string; text: string; used_by: string[] }> => {
    const spec = promptSpec(input.name);
    const { name: _name, ...given } = input;
    checkPromptInputs(spec, given);
    if (input.agent_id !== undefined) checkAgentId(input.agent_id);
    return { name: spec.name, text: await RENDER[spec.name]!(ctx, input), used_by: spec.used_by };
  },
  cli: {
    command: 'prompt show',
    args: ['name'],
    short: { project: 'p', repo: 'n' },
    human: (r) => r.text.trimEnd(),
  },
  mcp: { tool: 'hub_prompt_show', when: 'Use when you need the text hub hands agents.' },
  http: [{ method: 'GET', route: '/v3/agents/prompts/{name}', input: 'query' }],
});
