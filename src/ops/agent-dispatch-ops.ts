import * as z from 'zod';
import { checkAgentId } from '../acl/index.js';
import {
  type AgentProfileView,
  agentProfileOf,
  checkTarget,
  checkTask,
  type DispatchPlan,
  dispatchPlan,
  repoOf,
  TASK_MAX_CHARS,
  VENDOR_IDS,
  vendorOf,
} from '../agents/index.js';
import {
  checkRoot,
  definitionArgs,
  dispatchScopes,
  dispatchTemplate,
  foreignClaims,
} from './agent-dispatch-deps.js';
import { cliHelp, unlisted } from './cli-help.js';
import { keyValues } from './format.js';
import { VENDOR_HINT } from './install-support.js';
import { defineOp, READ_ONLY } from './registry.js';

/** Fields the agent operations share, so CLI help, MCP schemas and HTTP queries say the same. */
export const agentTargetFields = {
  project: cliHelp(z.string().min(1).max(200), 'Project name.'),
  repo: cliHelp(z.string().min(1).max(200), 'Repository name (in the project).'),
  component: z.string().min(1).max(200).optional().describe('Component of the repository (adds its layer).'),
};

const list = (xs: readonly string[] | null) => (xs === null ? 'any' : xs.length ? xs.join(', ') : '-');

const profileHuman = (p: AgentProfileView) =>
  [
    keyValues({
      repository: `${p.project_name}/${p.repo_name}${p.component_name ? `/${p.component_name}` : ''}`,
      tier: p.tier === null ? '-' : `${p.tier}${p.tier_source === 'tag' ? ' (agent_tier tag)' : ''}`,
      skills: list(p.skills),
      mcp: list(p.mcp),
      rules: list(p.rules),
      vendors: list(p.vendors),
      layers: p.layers.map((l) => l.id).join(' -> ') || 'none (no agent_profile in scope)',
      'inherit stopped at': p.inherit_stopped_at ?? undefined,
    }),
    p.effective_instructions.text ? `\n\n${p.effective_instructions.text}` : '',
  ].join('');

export const agentProfileShow = defineOp({
  id: 'agent.profile.show',
  summary: 'The effective agent_profile of a repository: workspace, project, repo and component merged.',
  description:
    'Lists (skills, mcp, rules) are ordered unions; vendors and tier come from the most specific scope that sets them; inherit: false drops the enclosing scopes; without a tier the agent_tier tag (repository over project) gives one. Also prints the layered agent_instructions. Reads the manifest only.',
  input: z.strictObject(agentTargetFields),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): AgentProfileView => agentProfileOf(ctx.workspace().catalog, input),
  cli: { command: 'agent profile show', short: { project: 'p', repo: 'n' }, human: (p) => profileHuman(p) },
  mcp: {
    tool: 'hub_agent_profile_show',
    when: 'Use when checking what a repository asks of agents.',
  },
  http: [{ method: 'GET', route: '/v3/agents/profile', input: 'query' }],
});

const planHuman = (p: DispatchPlan) => {
  const i = p.install;
  const hint = p.launch[p.vendor];
  const where = p.repo
    ? `${p.project}/${p.repo}${p.component ? `/${p.component}` : ''}`
    : (p.project ?? 'workspace');
  return [
    `${p.template.id} (${p.template.source}) for ${p.vendor} in ${where}: ${p.task}`,
    ...p.warnings.map((w) => `warning: ${w}`),
    i.installed
      ? `installed (${i.installed_in}): ${i.installed_in === 'project' ? i.project_scope.path : i.user_scope.path}`
      : `not installed; run${i.cwd ? ` in ${i.cwd}` : ''}: ${i.command}`,
    hint ? `launch: ${hint.command ?? hint.text}` : '',
    `context: ${p.handoff.context_pack_command}`,
    `hand-off prompt: ${p.handoff.prompt_command}`,
    `out of scope: ${p.out_of_scope.repositories.count} other repositories, ${p.out_of_scope.claims.length} claim(s) of other agents`,
    p.missing_profile_skills?.length
      ? `missing profile skills: ${p.missing_profile_skills.join(', ')}; run: ${p.profile_apply_command}`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
};

export const agentDispatchPlan = defineOp({
  id: 'agent.dispatch-plan',
  summary: 'How to hand a task to an agent template: install, launch, handoff, limits.',
  description:
    "install: the agent file (or skill) in project scope (the repository checkout) and user scope (HOME), and the hub agent create command. launch: per-vendor command lines, only with flags the vendors document (docs/agents.md cites each). handoff: the tiered pack and compile commands, the repo hand-off prompt (also `hub prompt show repo-handoff`) and the layered agent_instructions. out_of_scope: other repositories, live claims of other agents in the repository, the template's limits. With an agent_profile: required and missing profile skills and the agent apply command. Writes nothing.",
  input: z.strictObject({
    id: cliHelp(z.string().min(1).max(200), 'Agent template id (hub agent list).'),
    vendor: cliHelp(z.string().min(1).max(100).describe(VENDOR_HINT), `One of ${VENDOR_IDS.join(', ')}.`),
    project: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Required by project- and repo-scoped templates.'),
    repo: z.string().min(1).max(200).optional().describe('Required by repo-scoped templates.'),
    component: agentTargetFields.component,
    task: cliHelp(
      z.string().optional().describe('What the agent is asked to do, one line (default: the template name).'),
      `What the agent is asked to do: one line, at most ${TASK_MAX_CHARS} characters (default: the template name).`,
    ),
    agent_id: z.string().min(1).max(200).optional().describe('Agent id put in the commands.'),
    root: unlisted(
      z.string().min(1).max(4096).optional().describe('Accepted when it is the workspace folder.'),
    ),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<DispatchPlan> => {
    checkRoot(ctx, input.root);
    const vendor = vendorOf(input.vendor);
    if (input.agent_id !== undefined) checkAgentId(input.agent_id);
    if (input.task !== undefined) checkTask(input.task);
    const template = dispatchTemplate(ctx, input.id);
    checkTarget(template, input.project, input.repo);
    const { catalog } = ctx.workspace();
    const repo = input.project && input.repo ? repoOf(catalog, input.project, input.repo) : undefined;
    const scopes = dispatchScopes(ctx, repo);
    return dispatchPlan(catalog, {
      template,
      vendor,
      project: input.project,
      repo: input.repo,
      component: input.component,
      task: input.task,
      agentId: input.agent_id,
      scopes,
      claims: repo ? await foreignClaims(ctx, repo, input.agent_id) : [],
      definitionArgs: definitionArgs(ctx, scopes.project.base),
    });
  },
  cli: {
    command: 'agent dispatch-plan',
    args: ['id'],
    short: { project: 'p', repo: 'n' },
    human: (p) => planHuman(p),
  },
  mcp: {
    tool: 'hub_agent_dispatch_plan',
    when: 'Use when handing a task to another agent.',
  },
  http: [{ method: 'GET', route: '/v3/agents/templates/{id}/dispatch-plan', input: 'query' }],
});
