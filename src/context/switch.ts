import { relative } from 'node:path';
import { type Catalog, scopeMiss } from '../catalog/index.js';
import { NotFoundError } from '../infra/index.js';
import { type EffectiveProfile, instructionLayers } from '../profile/index.js';
import type { DeclaredCommand } from '../repo-commands/index.js';
import type { CardEdge, CardEdges } from './card-edges.js';

/** Environment a shell or agent adopts when it switches to a project (and repository). */
export type SwitchEnv = Record<string, string>;

export interface Instruction {
  scope: 'workspace' | 'project' | 'repo';
  text: string;
}

interface ObjectiveLike {
  id: string;
  title: string;
  status: string;
  repos: string[];
  updated_at: string;
}

/** Checks that the target exists; a repository is looked up inside its project. */
export function switchTarget(catalog: Catalog, project: string, repo?: string) {
  const repos = catalog.reposMatching(project);
  if (repos.length === 0) {
    const miss = scopeMiss(catalog, project, undefined, {
      project: 'unknown_project',
      repo: 'unknown_repository',
    });
    throw new NotFoundError(miss.message, miss.details);
  }
  if (repo === undefined) return { repos, repo: undefined };
  const hit = repos.find((r) => r.name === repo);
  if (!hit) {
    const miss = scopeMiss(catalog, project, repo, {
      project: 'unknown_project',
      repo: 'unknown_repository',
    });
    throw new NotFoundError(miss.message, miss.details);
  }
  return { repos, repo: hit };
}

/** HUB_* variables for the target: the manifest, the project, and the repository with its checkout. */
export function switchEnv(catalog: Catalog, project: string, repo?: string): SwitchEnv {
  const env: SwitchEnv = { HUB_DEFINITION: catalog.file.path, HUB_PROJECT: project };
  const r = repo ? catalog.repoById.get(`${project}/${repo}`) : undefined;
  if (r) {
    env.HUB_REPO = r.name;
    env.HUB_REPO_ID = r.id;
    env.HUB_REPO_PATH = r.root;
  }
  return env;
}

const shellQuote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;

/** POSIX `export` lines (single-quoted, so no value is ever expanded by the shell). */
export function shellExports(env: SwitchEnv): string {
  return Object.entries(env)
    .map(([k, v]) => `export ${k}=${shellQuote(v)}`)
    .join('\n');
}

/** agent_instructions from the workspace, the project and the repository, outermost first. */
export function layeredInstructions(catalog: Catalog, project: string, repo?: string): Instruction[] {
  return instructionLayers(catalog, { project, repo }).map((l) => ({
    scope: l.scope as Instruction['scope'],
    text: l.text,
  }));
}

const OPEN = new Set(['pending', 'in_progress', 'blocked']);

/**
 * The objective for the target: open objectives whose repos name the repository (by id or by path) or, for a
 * project, any of its repositories; in_progress first, then most recently updated.
 */
export function pickObjective<O extends ObjectiveLike>(
  catalog: Catalog,
  objectives: readonly O[],
  project: string,
  repo?: string,
): O | null {
  const targets = catalog
    .reposMatching(project, repo)
    .flatMap((r) => [r.id, `./${relative(catalog.file.root, r.root).split('\\').join('/')}`, r.root]);
  const hits = objectives.filter(
    (o) => OPEN.has(o.status) && o.repos.some((ref) => targets.includes(ref.replace(/\/+$/, ''))),
  );
  hits.sort(
    (a, b) =>
      Number(b.status === 'in_progress') - Number(a.status === 'in_progress') ||
      b.updated_at.localeCompare(a.updated_at) ||
      a.id.localeCompare(b.id),
  );
  return hits[0] ?? null;
}

export interface PromptInput {
  project: string;
  repo?: string;
  path?: string;
  instructions: Instruction[];
  objective: { id: string; title: string; status: string } | null;
  profile: EffectiveProfile | null;
  tier: number;
  /** The repository's commands and edges, from its card (repository targets). */
  commands?: DeclaredCommand[];
  edges?: CardEdges;
}

const PROMPT_COMMANDS = 6;

function commandsLine(commands: DeclaredCommand[]): string {
  const shown = commands.slice(0, PROMPT_COMMANDS).map((c) => {
    const where = c.dir ? ` in ${c.dir}` : '';
    return `${c.kind ?? c.name ?? 'run'} \`${c.command}\`${where} (${c.source})`;
  });
  const more =
    commands.length > PROMPT_COMMANDS ? `; ${commands.length - PROMPT_COMMANDS} more in the card` : '';
  return `Commands: ${shown.join('; ')}${more}.`;
}

function edgesLine(edges: CardEdges): string {
  const list = (xs: CardEdge[], total?: number) =>
    xs.length
      ? `${xs.map((e) => `${e.repo} (${e.type})`).join(', ')}${total !== undefined ? ` and ${total - xs.length} more` : ''}`
      : 'nothing';
  return `Depends on or calls: ${list(edges.out, edges.out_total)}; used by: ${list(edges.in, edges.in_total)}.`;
}

/** A short hand-over prompt for an agent starting in the target. */
export function switchPrompt(p: PromptInput): string {
  const where = p.repo
    ? `repository ${p.project}/${p.repo}${p.path ? ` (${p.path})` : ''}`
    : `project ${p.project}`;
  const lines = [`You are now working in ${where}.`];
  if (p.objective) lines.push(`Objective ${p.objective.id} [${p.objective.status}]: ${p.objective.title}`);
  else lines.push('No open objective names this scope yet; record one with `hub context objective set`.');
  for (const i of p.instructions) lines.push(`${i.scope} instructions: ${i.text}`);
  if (p.profile) {
    const parts = [
      p.profile.skills.length ? `skills ${p.profile.skills.join(', ')}` : '',
      p.profile.mcp.length ? `MCP servers ${p.profile.mcp.join(', ')}` : '',
      p.profile.rules.length ? `rules ${p.profile.rules.join(', ')}` : '',
    ].filter(Boolean);
    if (parts.length) lines.push(`Agent profile: ${parts.join('; ')}.`);
  }
  if (p.commands?.length) lines.push(commandsLine(p.commands));
  if (p.edges) lines.push(edgesLine(p.edges));
  const scope = `--project ${p.project}${p.repo ? ` --repo ${p.repo}` : ''}`;
  lines.push(`For changes since your last session run \`hub context pack --tier 2 ${scope} --json\`.`);
  return lines.join('\n');
}
