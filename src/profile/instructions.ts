import type { Catalog } from '../catalog/index.js';
import type { ProfileScope, ProfileTarget } from './effective-profile.js';

/** One scope's own `agent_instructions` (legacy `agent_prompt` is renamed on load by the model room). */
export interface InstructionLayer {
  scope: ProfileScope;
  /** `workspace`, `<project>`, `<project>/<repo>` or `<project>/<repo>/<component>`. */
  id: string;
  text: string;
}

/** Heading of each layer in the composed text, so an agent (and a person) sees where a rule comes from. */
const HEADINGS: Record<ProfileScope, string> = {
  workspace: 'Workspace instructions',
  project: 'Project instructions',
  repo: 'Repository instructions',
  component: 'Component instructions',
};

/**
 * `agent_instructions` of the workspace, the project, the repository and the component, outermost first; scopes
 * without instructions (or with only whitespace) are left out. Targets not in the catalog contribute nothing:
 * callers check existence first (an unknown component must be an error there, not an empty layer here).
 */
export function instructionLayers(catalog: Catalog, target: ProfileTarget): InstructionLayer[] {
  const m = catalog.file.manifest;
  const out: InstructionLayer[] = [];
  const push = (scope: ProfileScope, id: string, text: string | undefined) => {
    const t = text?.trim();
    if (t) out.push({ scope, id, text: t });
  };
  push('workspace', 'workspace', m.workspace?.agent_instructions ?? m.agent_instructions);
  const project = (m.workspace?.projects ?? []).find((p) => p.name === target.project);
  push('project', target.project, project?.agent_instructions);
  if (target.repo === undefined) return out;
  const repo = catalog.repoById.get(`${target.project}/${target.repo}`);
  push('repo', `${target.project}/${target.repo}`, repo?.raw?.agent_instructions);
  if (target.component === undefined || !repo) return out;
  const comp = (catalog.componentsByRepo.get(repo.id) ?? []).find((c) => c.name === target.component);
  if (comp) push('component', comp.id, comp.raw.agent_instructions);
  return out;
}

/** The layers as one text: each under a heading naming its scope, outermost first, separated by rules. */
export function composeInstructions(layers: readonly InstructionLayer[]): string {
  return layers.map((l) => `### ${HEADINGS[l.scope]} (${l.id})\n\n${l.text}`).join('\n\n---\n\n');
}
