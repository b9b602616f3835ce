import type { Catalog, CatalogRepo } from '../../catalog/index.js';
import { ValidationError } from '../../infra/index.js';
import { composeInstructions, type InstructionLayer, instructionLayers } from '../../profile/index.js';
import { type AgentProfileView, agentProfileOf, checkComponent, checkProject, repoOf } from '../profile.js';
import { type ForeignClaim, repoHandoffPrompt } from '../prompts/repo-handoff.js';
import { commandLine } from './shell.js';

/** Other repositories listed by id (all are counted). */
export const OTHER_REPOS_LISTED = 50;

/** Who a hand-off is for, where, and what limits the agent brings (a template, narrowed). */
export interface HandoffTarget {
  project?: string;
  repo?: string;
  component?: string;
  /** The task label, already checked (checkTask). */
  task: string;
  agentId?: string;
  agent?: { id: string; label: string; delegates_to: string[]; limits: string[] };
  /** Live claims of other agents in the repository. */
  claims: ForeignClaim[];
  /** The repository checkout, when on disk. */
  path?: string | null;
  /** `-c <manifest>` for printed commands, when the target folder would not find the manifest itself. */
  definitionArgs: string[];
}

export interface Handoff {
  repo: CatalogRepo | undefined;
  profile: AgentProfileView | null;
  tier: number;
  context_pack_command: string;
  context_compile_command: string | null;
  /** The repo hand-off prompt; null without a repository (the session-start prompt applies then). */
  prompt: string | null;
  prompt_command: string;
  effective_instructions: { layers: InstructionLayer[]; text: string };
  out_of_scope: { repositories: { count: number; ids: string[] }; claims: ForeignClaim[]; limits: string[] };
}

export const scopedArgs = (project?: string, repo?: string) => [
  ...(project ? ['--project', project] : []),
  ...(repo ? ['--repo', repo] : []),
];

/** Checks the target's names: a repo needs its project, a component its repository; unknown names name close ones. */
function targetRepo(catalog: Catalog, h: HandoffTarget): CatalogRepo | undefined {
  if (h.repo !== undefined && h.project === undefined)
    throw new ValidationError('repo: needs project (--project with --repo)', {
      field: 'repo',
      value: h.repo,
      rule: 'requires_project',
    });
  const repo = h.project && h.repo ? repoOf(catalog, h.project, h.repo) : undefined;
  if (h.project !== undefined && !repo) checkProject(catalog, h.project);
  if (h.component !== undefined) {
    if (!repo)
      throw new ValidationError('component: needs project and repo', {
        field: 'component',
        rule: 'requires_repo',
      });
    checkComponent(catalog, repo, h.component);
  }
  return repo;
}

/**
 * The hand-off of a task in a repository (or project, or the workspace): the tier of the effective profile (else
 * 1 for a project or repository, 0 for the workspace), the pack and compile commands, the layered instructions,
 * what is out of scope and the repo hand-off prompt. `dispatch-plan` and `prompt show repo-handoff` both print
 * this, so the two never disagree.
 */
export function handoffOf(catalog: Catalog, h: HandoffTarget): Handoff {
  const repo = targetRepo(catalog, h);
  const profile =
    repo && h.project && h.repo
      ? agentProfileOf(catalog, { project: h.project, repo: h.repo, component: h.component })
      : null;
  const tier = profile?.tier ?? (h.project ? 1 : 0);
  const def = h.definitionArgs;
  const where = scopedArgs(h.project, h.repo);
  const component = h.component ? ['--component', h.component] : [];
  const pack = commandLine(['hub', ...def, 'context', 'pack', '--tier', String(tier), ...where, '--json']);
  const compile = repo
    ? commandLine(['hub', ...def, 'context', 'compile', ...where, ...component, '--json'])
    : null;
  // Without a project only the workspace layer applies (no project is named '': names start with a letter or digit).
  const layers = instructionLayers(catalog, {
    project: h.project ?? '',
    repo: h.repo,
    component: h.component,
  });
  const instructions = { layers, text: composeInstructions(layers) };
  // Out of scope: every other repository (for a project target, those of other projects), others' claims, limits.
  const others = repo
    ? catalog.repos.filter((r) => r.id !== repo.id)
    : h.project
      ? catalog.repos.filter((r) => r.project !== h.project)
      : [];
  const a = h.agent;
  const limits = [
    ...(a?.delegates_to.length
      ? [`Work that belongs to ${a.delegates_to.join(', ')}: delegate it, do not do it here.`]
      : []),
    ...(h.component && repo ? [`Other components of ${repo.id}: this task is about ${h.component}.`] : []),
    ...(a?.limits ?? []),
  ];
  const prompt =
    repo && h.project && h.repo
      ? repoHandoffPrompt({
          agent: a ? { id: a.id, label: a.label } : undefined,
          project: h.project,
          repo: h.repo,
          component: h.component ?? null,
          path: h.path ?? null,
          task: h.task,
          agentId: h.agentId,
          packCommand: pack,
          compileCommand: compile ?? pack,
          instructions: instructions.text,
          profile,
          outOfScope: { otherRepositories: others.length, claims: h.claims, limits },
        })
      : null;
  const promptCommand = repo
    ? commandLine([
        'hub',
        ...def,
        'prompt',
        'show',
        'repo-handoff',
        ...where,
        ...component,
        ...(a ? ['--template', a.id] : []),
        '--task',
        h.task,
        ...(h.agentId ? ['--agent-id', h.agentId] : []),
      ])
    : commandLine(['hub', ...def, 'prompt', 'show', 'session-start']);
  return {
    repo,
    profile,
    tier,
    context_pack_command: pack,
    context_compile_command: compile,
    prompt,
    prompt_command: promptCommand,
    effective_instructions: instructions,
    out_of_scope: {
      repositories: { count: others.length, ids: others.slice(0, OTHER_REPOS_LISTED).map((r) => r.id) },
      claims: h.claims,
      limits,
    },
  };
}
