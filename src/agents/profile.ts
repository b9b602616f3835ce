import {
  type Catalog,
  type CatalogRepo,
  didYouMean,
  normalizeTags,
  scopeMiss,
  suggestionText,
} from '../catalog/index.js';
import { NotFoundError, ValidationError } from '../infra/index.js';
import type { AgentProfile } from '../model/index.js';
import {
  composeInstructions,
  type EffectiveProfile,
  type InstructionLayer,
  instructionLayers,
  mergeProfiles,
  type ProfileScope,
  profileLayers,
} from '../profile/index.js';

/** Tag that gives a tier where no profile sets one (the earlier product's `agent_tier`). */
export const TIER_TAG = 'agent_tier';

type Tags = Record<string, string | number | boolean>;

/** The effective agent profile of one repository (or component), as `agent profile show` prints it. */
export interface AgentProfileView {
  project_name: string;
  repo_name: string;
  component_name: string | null;
  /** True when a scope of the chain declares an `agent_profile` (or an `agent_tier` tag gives a tier). */
  has_profile: boolean;
  tier: 0 | 1 | 2 | null;
  /** Where the tier came from: a profile, the `agent_tier` tag, or nowhere. */
  tier_source: 'profile' | 'tag' | null;
  skills: string[];
  mcp: string[];
  rules: string[];
  /** Vendors of the most specific scope that names any; null when none does (every vendor). */
  vendors: string[] | null;
  inherit_stopped_at: string | null;
  /** Each merged scope's own profile as declared, outermost first. */
  layers: Array<{ scope: ProfileScope; id: string; profile: AgentProfile }>;
  /** Project tags overlaid by the repository's (what `--tag` filters match). */
  tags: Tags;
  /** Layered `agent_instructions`: workspace -> project -> repo -> component, and the composed text. */
  effective_instructions: { layers: InstructionLayer[]; text: string };
}

/** The repository of `project/repo`, or NotFoundError naming the unknown part with close names. */
export function repoOf(catalog: Catalog, project: string, repo: string): CatalogRepo {
  const hit = catalog.repoById.get(`${project}/${repo}`);
  if (hit) return hit;
  const miss = scopeMiss(catalog, project, repo, { project: 'unknown_project', repo: 'unknown_repository' });
  throw new NotFoundError(miss.message, miss.details);
}

/** Checks that a project exists; unknown is NotFoundError with close names. */
export function checkProject(catalog: Catalog, project: string): void {
  if (catalog.reposMatching(project).length > 0) return;
  const miss = scopeMiss(catalog, project, undefined, {
    project: 'unknown_project',
    repo: 'unknown_repository',
  });
  throw new NotFoundError(miss.message, miss.details);
}

/** Checks a component name of a repository; unknown is NotFoundError with close names (never the repo). */
export function checkComponent(catalog: Catalog, repo: CatalogRepo, component: string): void {
  const names = (catalog.componentsByRepo.get(repo.id) ?? []).map((c) => c.name);
  if (names.includes(component)) return;
  const suggestions = didYouMean(component, names);
  throw new NotFoundError(
    `component: no component '${component}' in ${repo.id}${suggestionText(suggestions)}`,
    {
      field: 'component',
      value: component,
      rule: 'unknown_component',
      suggestions,
      known: names.slice(0, 50),
    },
  );
}

/** Project tags overlaid by the repository's own. */
export function repoTags(catalog: Catalog, repo: CatalogRepo): Tags {
  const project = (catalog.file.manifest.workspace?.projects ?? []).find((p) => p.name === repo.project);
  return { ...normalizeTags(project?.tags), ...repo.tags };
}

const tierOfTag = (v: Tags[string] | undefined): 0 | 1 | 2 | null =>
  v === 0 || v === 1 || v === 2 ? v : v === '0' || v === '1' || v === '2' ? (Number(v) as 0 | 1 | 2) : null;

/**
 * The effective profile of a repository, or of one of its components: the layers merged by the profile room
 * (lists as ordered unions, vendors and tier from the most specific scope, `inherit: false` cuts), then a tier
 * from the `agent_tier` tag (repository over project) where no profile sets one. Unknown names are
 * NotFoundErrors with close names.
 */
export function agentProfileOf(
  catalog: Catalog,
  target: { project: string; repo: string; component?: string },
): AgentProfileView {
  const repo = repoOf(catalog, target.project, target.repo);
  if (target.component !== undefined) checkComponent(catalog, repo, target.component);
  const layers = profileLayers(catalog, target) ?? [];
  const merged: EffectiveProfile = mergeProfiles(layers);
  const tags = repoTags(catalog, repo);
  const tagTier = tierOfTag(tags[TIER_TAG]);
  const tier = merged.tier ?? tagTier;
  const kept = new Set(merged.layers.map((l) => l.id));
  const instructions = instructionLayers(catalog, target);
  return {
    project_name: target.project,
    repo_name: target.repo,
    component_name: target.component ?? null,
    has_profile: merged.layers.length > 0 || tagTier !== null,
    tier,
    tier_source: merged.tier !== null ? 'profile' : tagTier !== null ? 'tag' : null,
    skills: merged.skills,
    mcp: merged.mcp,
    rules: merged.rules,
    vendors: merged.vendors,
    inherit_stopped_at: merged.inherit_stopped_at,
    layers: layers
      .filter((l) => l.profile && kept.has(l.id))
      .map((l) => ({ scope: l.scope, id: l.id, profile: l.profile as AgentProfile })),
    tags,
    effective_instructions: { layers: instructions, text: composeInstructions(instructions) },
  };
}

/** One `--tag k=v` filter. */
export interface TagFilter {
  key: string;
  value: string;
}

/** Parses `k=v` filters; anything else is a ValidationError naming the filter. */
export function parseTagFilters(tags: readonly string[] | undefined, field = 'tag'): TagFilter[] {
  return (tags ?? []).map((raw) => {
    const i = raw.indexOf('=');
    const key = i > 0 ? raw.slice(0, i).trim() : '';
    const value = i > 0 ? raw.slice(i + 1).trim() : '';
    if (!key || !value)
      throw new ValidationError(`${field}: '${raw}' is not key=value (for example --tag team=payments)`, {
        field,
        value: raw,
        rule: 'key=value',
      });
    return { key, value };
  });
}

/** True when every filter names a tag of the set with that value (booleans and numbers compare as text). */
export function tagsMatch(tags: Tags, filters: readonly TagFilter[]): boolean {
  return filters.every((f) => f.key in tags && String(tags[f.key]) === f.value);
}

export interface ProfileSelection {
  repos: Array<{ repo: CatalogRepo; profile: AgentProfileView }>;
  /** Repositories in scope left out, and why (tags differ, vendor not in the profile's vendors). */
  skipped: Array<{ repository: string; reason: 'tags' | 'vendor'; detail: string }>;
}

/**
 * The repositories `agent apply` works on: those of `project` (one `repo` of it, or all), or of the whole
 * workspace, whose merged tags match every filter and whose profile, when it names vendors, names `vendor`.
 * A repo without a project is a ValidationError; unknown names are NotFoundErrors with close names.
 */
export function selectProfileRepos(
  catalog: Catalog,
  input: { project?: string; repo?: string; tags?: readonly TagFilter[]; vendor?: string },
): ProfileSelection {
  if (input.repo !== undefined && input.project === undefined)
    throw new ValidationError('repo: needs project (--project with --repo)', {
      field: 'repo',
      value: input.repo,
      rule: 'requires_project',
    });
  let candidates: CatalogRepo[];
  if (input.project !== undefined && input.repo !== undefined)
    candidates = [repoOf(catalog, input.project, input.repo)];
  else {
    if (input.project !== undefined) checkProject(catalog, input.project);
    candidates = catalog.reposMatching(input.project);
  }
  const out: ProfileSelection = { repos: [], skipped: [] };
  for (const repo of candidates) {
    const profile = agentProfileOf(catalog, { project: repo.project, repo: repo.name });
    if (!tagsMatch(profile.tags, input.tags ?? [])) {
      out.skipped.push({ repository: repo.id, reason: 'tags', detail: 'tags do not match every --tag' });
      continue;
    }
    if (input.vendor !== undefined && profile.vendors !== null && !profile.vendors.includes(input.vendor)) {
      out.skipped.push({
        repository: repo.id,
        reason: 'vendor',
        detail: `profile vendors are ${profile.vendors.join(', ') || 'none'}`,
      });
      continue;
    }
    out.repos.push({ repo, profile });
  }
  return out;
}
