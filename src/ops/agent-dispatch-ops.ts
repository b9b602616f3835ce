import * as z from 'zod';
import { type AgentProfileView, agentProfileOf } from '../agents/index.js';
import { keyValues } from './format.js';
import { defineOp, READ_ONLY } from './registry.js';

/** Fields the agent operations share, so CLI help, MCP schemas and HTTP queries say the same. */
export const agentTargetFields = {
  project: z.string().min(1).max(200).describe('Project name.'),
  repo: z.string().min(1).max(200).describe('Repository name (in the project).'),
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
  summary: 'The effective agent_profile of a repository: workspace -> project -> repo (-> component) merged.',
  description:
    'Lists (skills, mcp, rules) are ordered unions; vendors and tier come from the most specific scope that sets them; inherit: false drops the enclosing scopes; without a tier the agent_tier tag (repository over project) gives one. Also prints the layered agent_instructions. Reads the manifest only.',
  input: z.strictObject(agentTargetFields),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): AgentProfileView => agentProfileOf(ctx.workspace().catalog, input),
  cli: { command: 'agent profile show', short: { project: 'p', repo: 'n' }, human: (p) => profileHuman(p) },
  mcp: { tool: 'hub_agent_profile_show' },
  http: [{ method: 'GET', route: '/v3/agents/profile', input: 'query' }],
});
