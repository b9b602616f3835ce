import { closest } from 'fastest-levenshtein';
import { DYNAMIC_TOOLS } from '../agents/index.js';
import { didYouMean, UsageError } from '../infra/index.js';
import { loadOperationsByModule, type OperationModule } from './operation-modules.js';

/**
 * Toolsets: the MCP tools grouped by what an agent does with them. Each registry module belongs to exactly one
 * toolset (the Record below makes a new module choose one at compile time), so every tool is in exactly one.
 */
export const TOOLSETS = {
  catalog: 'Find repositories and components: list, resolve paths, show, the dependency graph, search, CI.',
  context: 'Orient a session: begin it, context packs, repo cards, context switches, prompts.',
  coordination: 'Record and share progress: objectives, handoffs, approvals, the events feed.',
  acl: 'Work beside other agents: branches, leases, worktrees, file claims, concepts.',
  orchestration: 'Drive a task graph: tasks and their transitions, the scheduler, the agent operating view.',
  merge: 'Land work: the merge queue (enqueue, status, integrate, retry, promote, rollup, cancel, train).',
  campaigns: 'Make one change across many repositories: campaign status, context, board sync, plan and land.',
  runs: 'Record runs and route work: the run ledger, request routes, lanes, policies.',
  agents:
    'Install and dispatch agents: templates, dispatch plans, the agent registry, skills and MCP installs.',
  workspace: 'Look after the workspace: summary, health, lists, grep, terrain, sync and discovery.',
  org: 'Reach beyond the workspace: index and search the code host organisation, materialize repositories.',
  admin: 'Maintain hub itself: state backend set-up, version check and upgrade.',
} as const;

export type ToolsetName = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as ToolsetName[];

/** The toolset of each operation module (modules without MCP tools are placed too, for when they get some). */
export const MODULE_TOOLSET: Readonly<Record<OperationModule, ToolsetName>> = {
  component: 'catalog',
  'component-detect': 'catalog',
  graph: 'catalog',
  search: 'catalog',
  'workspace-repo': 'catalog',
  'repo-ci': 'catalog',
  derived: 'catalog',
  catalog: 'catalog',
  'repo-resolve': 'catalog',
  'repo-open': 'catalog',
  atlas: 'catalog',
  session: 'context',
  'context-pack': 'context',
  prompt: 'context',
  objective: 'coordination',
  handoff: 'coordination',
  approval: 'coordination',
  events: 'coordination',
  branch: 'acl',
  lease: 'acl',
  worktree: 'acl',
  claim: 'acl',
  'claim-guard': 'acl',
  semantic: 'acl',
  task: 'orchestration',
  'task-transition': 'orchestration',
  'task-bind': 'orchestration',
  schedule: 'orchestration',
  aos: 'orchestration',
  merge: 'merge',
  'merge-train': 'merge',
  campaign: 'campaigns',
  'campaign-context': 'campaigns',
  'campaign-board': 'campaigns',
  'campaign-land': 'campaigns',
  run: 'runs',
  route: 'runs',
  policy: 'runs',
  agent: 'agents',
  'agent-install': 'agents',
  'agent-template': 'agents',
  'agent-template-write': 'agents',
  'agent-dispatch': 'agents',
  skills: 'agents',
  'mcp-install': 'agents',
  'workspace-intro': 'workspace',
  'workspace-terrain': 'workspace',
  'project-sync': 'workspace',
  'project-source': 'workspace',
  'project-prune': 'workspace',
  init: 'workspace',
  config: 'workspace',
  appconfig: 'workspace',
  'config-studio': 'workspace',
  import: 'workspace',
  org: 'org',
  state: 'admin',
  version: 'admin',
};

/**
 * The tools of one agent work session, in the order it needs them: orient (begin, pack, resume), find code
 * (resolve, show, graph, search), record progress (objective upsert), coordinate (handoffs, approvals), and the
 * version check that works without a manifest. Listing, editing and admin tools stay in `full`.
 */
export const CORE_TOOLS: readonly string[] = [
  'hub_session_begin',
  'hub_context_pack',
  'hub_context_resume',
  'hub_component_resolve',
  'hub_component_show',
  'hub_component_graph',
  'hub_repo_search',
  'hub_objective_upsert',
  'hub_handoff_list',
  'hub_handoff_claim',
  'hub_handoff_complete',
  'hub_approval_request',
  'hub_version_check',
];

/** Profiles: `full` (every tool) and `core` (CORE_TOOLS). */
export const PROFILES = ['core', 'full'] as const;

/** The two tools `--dynamic` adds: they list toolsets and enable one at run time (agent files allow them). */
export const [TOOLSETS_LIST_TOOL, TOOLSETS_ENABLE_TOOL] = DYNAMIC_TOOLS as [string, string];
export { DYNAMIC_TOOLS };

/** A tool as selections see it: its name and its toolset. */
export interface ToolRef {
  name: string;
  toolset: ToolsetName;
}

const isToolset = (name: string): name is ToolsetName => Object.hasOwn(TOOLSETS, name);

/** The nearest name a user could have meant: a close one first, else the single closest of all. */
function nearest(entry: string, tools: readonly ToolRef[]): string {
  const names = entry.startsWith('hub_')
    ? tools.map((t) => t.name)
    : [...PROFILES, ...TOOLSET_NAMES, ...tools.map((t) => t.name.slice(4))];
  return didYouMean(entry, names, 1)[0] ?? closest(entry, names);
}

/** The tool names one selection word stands for: a profile, a toolset, or a tool (the `hub_` prefix optional). */
export function namesOf(entry: string, tools: readonly ToolRef[], field = 'tools'): string[] {
  if (entry === 'full') return tools.map((t) => t.name);
  const known = new Set(tools.map((t) => t.name));
  if (entry === 'core') return CORE_TOOLS.filter((n) => known.has(n));
  if (isToolset(entry)) return tools.filter((t) => t.toolset === entry).map((t) => t.name);
  const name = entry.startsWith('hub_') ? entry : `hub_${entry}`;
  if (known.has(name)) return [name];
  const near = nearest(entry, tools);
  throw new UsageError(
    `${field}: unknown toolset, profile or tool '${entry}'; did you mean '${near}'? ` +
      `Toolsets: ${TOOLSET_NAMES.join(', ')}; profiles: ${PROFILES.join(', ')}; tools: \`hub mcp tools\``,
    { field, value: entry, rule: 'known_tool', suggestions: [near] },
  );
}

/** The words of a selection (`core,acl,hub_events`): trimmed, empty ones dropped; an empty selection is refused. */
export function selectionWords(spec: string, field = 'tools'): string[] {
  const words = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (words.length === 0)
    throw new UsageError(`${field}: empty list; use core, full, toolsets or tool names`, {
      field,
      value: spec,
      rule: 'non_empty',
    });
  return words;
}

/** The names a whole selection serves (every word checked; unknown ones refused with the nearest valid name). */
export function selectedNames(spec: string, tools: readonly ToolRef[], field = 'tools'): Set<string> {
  return new Set(selectionWords(spec, field).flatMap((w) => namesOf(w, tools, field)));
}

/** Every MCP tool of the registry with its toolset (loads every operation module). */
export async function mcpToolRefs(): Promise<ToolRef[]> {
  return (await loadOperationsByModule()).flatMap(({ module, op }) =>
    op.mcp ? [{ name: op.mcp.tool, toolset: MODULE_TOOLSET[module] }] : [],
  );
}
