import type { Catalog } from '../catalog/index.js';
import type { AgentProfile } from '../model/index.js';

export type ProfileScope = 'workspace' | 'project' | 'repo' | 'component';

/** One scope's own agent_profile, as declared. */
export interface ProfileLayer {
  scope: ProfileScope;
  /** `workspace`, `<project>`, `<project>/<repo>` or `<project>/<repo>/<component>`. */
  id: string;
  profile: AgentProfile | undefined;
}

/** The merged profile of one scope, with where each part came from. */
export interface EffectiveProfile {
  skills: string[];
  mcp: string[];
  rules: string[];
  /** Vendors of the most specific scope that names any; null when none does. */
  vendors: string[] | null;
  /** Tier of the most specific scope that sets one; null when none does. */
  tier: 0 | 1 | 2 | null;
  /** Scopes merged, outermost first (those before an `inherit: false` are left out). */
  layers: Array<{ scope: ProfileScope; id: string }>;
  /** Scope whose `inherit: false` cut off the enclosing ones, or null. */
  inherit_stopped_at: string | null;
}

const union = (a: string[], b: readonly string[] | undefined): string[] => {
  if (!b?.length) return a;
  const out = [...a];
  for (const x of b) if (!out.includes(x)) out.push(x);
  return out;
};

/**
 * Merges layers outermost first. Lists of ids (skills, mcp, rules) accumulate as an ordered union, since a
 * narrower scope adds capabilities to what its enclosing scopes already need. `vendors` and `tier` are
 * replaced by the most specific scope that sets them: they choose, they do not add up. `inherit: false`
 * on a scope discards everything merged before it.
 */
export function mergeProfiles(layers: readonly ProfileLayer[]): EffectiveProfile {
  let out: EffectiveProfile = {
    skills: [],
    mcp: [],
    rules: [],
    vendors: null,
    tier: null,
    layers: [],
    inherit_stopped_at: null,
  };
  for (const layer of layers) {
    const p = layer.profile;
    if (!p) continue;
    if (p.inherit === false) {
      out = { ...out, skills: [], mcp: [], rules: [], vendors: null, tier: null, layers: [] };
      out.inherit_stopped_at = layer.id;
    }
    out.skills = union(out.skills, p.skills);
    out.mcp = union(out.mcp, p.mcp);
    out.rules = union(out.rules, p.rules);
    if (p.vendors !== undefined) out.vendors = [...p.vendors];
    if (p.tier !== undefined) out.tier = p.tier;
    out.layers.push({ scope: layer.scope, id: layer.id });
  }
  return out;
}

export interface ProfileTarget {
  project: string;
  repo?: string;
  component?: string;
}

/**
 * The layers for a project, repository or component, outermost first; undefined when the target is not in
 * the catalog. An unknown component yields undefined, never the repository's layers.
 */
export function profileLayers(catalog: Catalog, target: ProfileTarget): ProfileLayer[] | undefined {
  const m = catalog.file.manifest;
  const layers: ProfileLayer[] = [
    { scope: 'workspace', id: 'workspace', profile: m.workspace?.agent_profile ?? m.agent_profile },
  ];
  const project = (m.workspace?.projects ?? []).find((p) => p.name === target.project);
  const appProject = catalog.isApplication && catalog.appName === target.project;
  if (!project && !appProject) return undefined;
  layers.push({ scope: 'project', id: target.project, profile: project?.agent_profile });
  if (target.repo === undefined) return target.component === undefined ? layers : undefined;
  const repo = catalog.repoById.get(`${target.project}/${target.repo}`);
  if (!repo) return undefined;
  layers.push({ scope: 'repo', id: repo.id, profile: repo.raw?.agent_profile });
  if (target.component === undefined) return layers;
  const comp = (catalog.componentsByRepo.get(repo.id) ?? []).find((c) => c.name === target.component);
  if (!comp) return undefined;
  layers.push({ scope: 'component', id: comp.id, profile: comp.raw.agent_profile });
  return layers;
}

/** The effective profile of a target, or null when the target (an unknown component included) does not exist. */
export function effectiveProfile(catalog: Catalog, target: ProfileTarget): EffectiveProfile | null {
  const layers = profileLayers(catalog, target);
  return layers ? mergeProfiles(layers) : null;
}
