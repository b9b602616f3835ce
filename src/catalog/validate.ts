import { didYouMean, normalizeRelPath, realpathOrUndefined, suggestionText } from '../infra/index.js';
import {
  type AgentProfile,
  formatPath,
  MCP_ID_RE,
  positionOf,
  RECOMMENDED_KINDS,
  RULE_ID_RE,
  SKILL_ID_RE,
} from '../model/index.js';
import type { Catalog, CatalogComponent, CatalogRepo } from './catalog.js';
import { type Checkouts, checkoutsOf, REPO_OUTSIDE_RULE } from './checkout.js';
import { type DirectoryProblem, directoryProblem, isDirectory, RepoDirectories } from './component-dirs.js';
import { findCycleGroups } from './cycles.js';
import { endpointNodeId } from './graph.js';

export interface Problem {
  path: string;
  line?: number;
  column?: number;
  rule: string;
  message: string;
  /** The key the problem is about (an unknown or a missing one). */
  key?: string;
  /** Known names close to the one given, closest first. */
  suggestions?: string[];
  /** What was expected there, in words. */
  expected?: string;
}

export interface ValidateOptions {
  /** Also check the filesystem: component directories exist and symlinks stay inside the repo. */
  filesystem: boolean;
  /** Project names that clash with reserved directories (basenames of the worktrees and campaigns paths). */
  reservedNames?: string[];
  /** Judge of repository checkouts (with the user's allowed outside folders); default: nothing allowed outside. */
  checkouts?: Checkouts;
  /**
   * Whether a relationship endpoint `{project: <organization>, repo: <name>}` names a repository indexed outside
   * the manifest (the org index); asked only for a repository endpoint the catalog and graph.nodes do not know.
   */
  externalRepo?: (organization: string, name: string) => boolean;
}

type YPath = Array<string | number>;

/** Collects problems with their line and column in the manifest's source. */
function collector(catalog: Catalog): { problems: Problem[]; add: (p: YPath, r: string, m: string) => void } {
  const problems: Problem[] = [];
  const add = (path: YPath, rule: string, message: string) => {
    const pos = catalog.file.source ? positionOf(catalog.file.source, path) : undefined;
    problems.push({ path: formatPath(path), line: pos?.line, column: pos?.column, rule, message });
  };
  return { problems, add };
}

/**
 * Only the filesystem rules of `validateCatalog` (repositories outside the workspace, component directories), for
 * callers that hold the manifest-only problems already (the servers' summary and health, per loaded manifest).
 */
export function validateFilesystem(
  catalog: Catalog,
  opts: Pick<ValidateOptions, 'checkouts'> = {},
): Problem[] {
  const { problems, add } = collector(catalog);
  const outside = checkRepoPlaces(catalog, opts.checkouts ?? checkoutsOf(catalog), add);
  for (const repo of catalog.repoById.values()) {
    if (outside.has(repo.id) || !isDirectory(repo.root)) continue;
    const realRoot = realpathOrUndefined(repo.root);
    if (!realRoot) continue;
    const dirs = new RepoDirectories(repo, realRoot);
    for (const c of catalog.componentsByRepo.get(repo.id) ?? []) {
      const norm = normalizeRelPath(c.raw.path);
      if (norm.escapes) continue;
      const p = dirs.problem(norm.path, c.raw.path);
      if (p) add([...c.yamlPath, 'path'], p.rule, p.message);
    }
  }
  return problems;
}

/** Every rule `hub config validate` enforces; returns all problems, never only the first. */
export function validateCatalog(catalog: Catalog, opts: ValidateOptions): Problem[] {
  const { problems, add } = collector(catalog);
  const m = catalog.file.manifest;
  checkProfile(m.agent_profile, ['agent_profile'], add);
  checkProfile(m.workspace?.agent_profile, ['workspace', 'agent_profile'], add);
  const projectNames = new Map<string, number>();
  const reserved = new Set((opts.reservedNames ?? []).filter(Boolean));
  (m.workspace?.projects ?? []).forEach((p, pi) => {
    const at: YPath = ['workspace', 'projects', pi];
    if (projectNames.has(p.name))
      add(
        [...at, 'name'],
        'duplicate_project',
        `duplicate project name '${p.name}' (first at projects[${projectNames.get(p.name)}])`,
      );
    else projectNames.set(p.name, pi);
    if (reserved.has(p.name)) {
      add(
        [...at, 'name'],
        'reserved_project_name',
        `project name '${p.name}' equals the basename of the worktrees or campaigns path; rename the project or the path`,
      );
    }
    checkProfile(p.agent_profile, [...at, 'agent_profile'], add);
    const repoNames = new Map<string, number>();
    p.repos.forEach((r, ri) => {
      const rAt: YPath = [...at, 'repos', ri];
      if (repoNames.has(r.name))
        add([...rAt, 'name'], 'duplicate_repo', `duplicate repo name '${r.name}' in project '${p.name}'`);
      else repoNames.set(r.name, ri);
      if (r.path && r.url)
        add(rAt, 'repo_locator', `repo '${p.name}/${r.name}' has both path and url; give exactly one`);
      if (!r.path && !r.url)
        add(rAt, 'repo_locator', `repo '${p.name}/${r.name}' has neither path nor url; give exactly one`);
      checkProfile(r.agent_profile, [...rAt, 'agent_profile'], add);
      if (p.derived?.enabled && !r.derived_from)
        add(
          rAt,
          'derived_from_required',
          `repo '${p.name}/${r.name}' of the derived working set has no derived_from; add repos with \`hub project derived include\``,
        );
    });
  });
  const outside = opts.filesystem
    ? checkRepoPlaces(catalog, opts.checkouts ?? checkoutsOf(catalog), add)
    : new Set();
  // One pass per repo id: a duplicate repo entry shares its components list, which would report each problem twice.
  for (const repo of catalog.repoById.values())
    checkRepoComponents(catalog, repo, opts.filesystem && !outside.has(repo.id), add);
  checkRelationships(catalog, opts, add);
  return problems;
}

/**
 * What is allowed but probably not meant, reported without failing validation: a component kind that is none
 * of the recommended kinds but one edit or so from one (`servce`). Kind is an open string, so a kind far from
 * every recommended one (`lambda-function`) is taken as chosen.
 */
export function catalogWarnings(catalog: Catalog): Problem[] {
  const { problems, add } = collector(catalog);
  const recommended: readonly string[] = RECOMMENDED_KINDS;
  for (const c of catalog.components) {
    const kind = c.raw.kind;
    if (kind === undefined || recommended.includes(kind)) continue;
    const suggestions = didYouMean(kind, recommended, 1);
    if (suggestions.length === 0) continue;
    add(
      [...c.yamlPath, 'kind'],
      'kind_near_miss',
      `kind '${kind}' is not a recommended kind${suggestionText(suggestions)} (component ${c.id}; kind is open, so a kind of your own is fine)`,
    );
    Object.assign(problems[problems.length - 1]!, {
      key: 'kind',
      suggestions,
      expected: `a kind of your own, or one of: ${recommended.join(', ')}`,
    });
  }
  return problems;
}

/**
 * Repositories whose real path (or where they would be cloned) lies outside the manifest's folder, unless the
 * user's own config allows it; returns their ids, whose folders are then never looked into.
 */
function checkRepoPlaces(
  catalog: Catalog,
  checkouts: Checkouts,
  add: (p: YPath, r: string, m: string) => void,
): Set<string> {
  const out = new Set<string>();
  for (const repo of catalog.repos) {
    if (!repo.yamlPath) continue;
    const c = checkouts.of(repo);
    if (c.state !== 'outside') continue;
    out.add(repo.id);
    add(
      [...repo.yamlPath, repo.path ? 'path' : 'url'],
      REPO_OUTSIDE_RULE,
      `repository ${repo.id} lies outside the workspace: its ${repo.path ? 'path' : 'checkout'} resolves to ${c.real}, outside ${catalog.file.root}; ` +
        'allow the folder in workspace.allowed_outside_paths of your user config or HUB_ALLOWED_OUTSIDE_PATHS',
    );
  }
  return out;
}

function checkProfile(
  profile: AgentProfile | undefined,
  at: YPath,
  add: (p: YPath, r: string, m: string) => void,
): void {
  if (!profile) return;
  const lists: Array<[keyof AgentProfile, RegExp, string]> = [
    ['skills', SKILL_ID_RE, 'lowercase letters, digits and single hyphens, at most 64 characters'],
    ['mcp', MCP_ID_RE, 'letters, digits, ".", "_" and "-", starting with a letter or digit'],
    ['rules', RULE_ID_RE, 'lowercase segments of letters, digits, ".", "_" and "-", separated by "/"'],
  ];
  for (const [key, re, rule] of lists) {
    const ids = (profile[key] as string[] | undefined) ?? [];
    ids.forEach((id, i) => {
      if (!re.test(id) || id.length > 64) {
        add(
          [...at, key, i],
          `invalid_${key}_id`,
          `invalid ${key === 'mcp' ? 'MCP' : key.slice(0, -1)} id '${id}': ${rule}`,
        );
      }
    });
  }
}

/**
 * What `config validate` says about a component directory `rel` (normalized, repo-relative) in `repo`: missing,
 * not a directory, or escaping through a symlink. Undefined when it is fine or the repo is not checked out
 * (then nothing can be checked). `component init --apply` asks the same before it writes.
 */
export function componentDirectoryProblem(repo: CatalogRepo, rel: string): DirectoryProblem | undefined {
  const realRoot = isDirectory(repo.root) ? realpathOrUndefined(repo.root) : undefined;
  if (!realRoot) return undefined;
  return directoryProblem(repo, realRoot, rel, rel);
}

/** The manifest rules of one repository's components, and with `filesystem` their directories on disk. */
function checkRepoComponents(
  catalog: Catalog,
  repo: CatalogRepo,
  filesystem: boolean,
  add: (p: YPath, r: string, m: string) => void,
): void {
  const comps = catalog.componentsByRepo.get(repo.id) ?? [];
  const names = new Map<string, CatalogComponent>();
  const paths = new Map<string, CatalogComponent>();
  const realRoot = filesystem && isDirectory(repo.root) ? realpathOrUndefined(repo.root) : undefined;
  const dirs = realRoot ? new RepoDirectories(repo, realRoot) : undefined;
  for (const c of comps) {
    // The path is built only for a profile: 200,000 components otherwise allocate 200,000 arrays for nothing.
    if (c.raw.agent_profile) checkProfile(c.raw.agent_profile, [...c.yamlPath, 'agent_profile'], add);
    const first = names.get(c.name);
    if (first)
      add(
        [...c.yamlPath, 'name'],
        'duplicate_component',
        `duplicate component name '${c.name}' in ${repo.id} (first at ${formatPath(first.yamlPath)})`,
      );
    else names.set(c.name, c);
    const norm = normalizeRelPath(c.raw.path);
    if (norm.escapes) {
      add(
        [...c.yamlPath, 'path'],
        'path_escapes',
        `component path '${c.raw.path}' escapes the root of ${repo.id}`,
      );
      continue;
    }
    const samePath = paths.get(norm.path);
    if (samePath) {
      add(
        [...c.yamlPath, 'path'],
        'duplicate_path',
        `component path '${c.raw.path}' normalizes to '${norm.path}', already used by '${samePath.name}'`,
      );
    } else paths.set(norm.path, c);
    if (dirs) {
      const p = dirs.problem(norm.path, c.raw.path);
      if (p) add([...c.yamlPath, 'path'], p.rule, p.message);
    }
  }
  for (const c of comps) {
    c.depends_on.forEach((dep, i) => {
      if (!names.has(dep))
        add(
          [...c.yamlPath, 'depends_on', i],
          'unknown_dependency',
          `component '${c.name}' depends on unknown component '${dep}' (same-repo names only)`,
        );
    });
  }
  for (const { names: cycle, groupSize } of findCycles(comps, names)) {
    const start = names.get(cycle[0]!)!;
    const more = groupSize - (cycle.length - 1);
    add(
      [...start.yamlPath, 'depends_on'],
      'dependency_cycle',
      `dependency cycle in ${repo.id}: ${cycle.join(' -> ')}${more > 0 ? ` (and ${more} more component(s) in cycles with these)` : ''}`,
    );
  }
}

/** Each group of mutually dependent components once, by its shortest cycle, with the group's size. */
function findCycles(
  comps: CatalogComponent[],
  names: Map<string, CatalogComponent>,
): Array<{ names: string[]; groupSize: number }> {
  // Each name stands for its first component (a duplicate name is reported on its own).
  const at = new Map<CatalogComponent, number>(comps.map((c, i) => [c, i]));
  const adj = comps.map((c) => {
    const out: number[] = [];
    for (const dep of c.depends_on) {
      const target = names.get(dep);
      if (target) out.push(at.get(target)!);
    }
    return out;
  });
  return findCycleGroups(adj).map((cy) => ({
    names: cy.path.map((i) => comps[i]!.name),
    groupSize: cy.groupSize,
  }));
}

function checkRelationships(
  catalog: Catalog,
  opts: ValidateOptions,
  add: (p: YPath, r: string, m: string) => void,
): void {
  const ids = new Set<string>();
  (catalog.file.manifest.graph?.relationships ?? []).forEach((rel, i) => {
    const at: YPath = ['graph', 'relationships', i];
    if (rel.id.trim() === '') add([...at, 'id'], 'relationship_id', 'relationship id must not be blank');
    else if (ids.has(rel.id)) add([...at, 'id'], 'relationship_id', `duplicate relationship id '${rel.id}'`);
    ids.add(rel.id);
    for (const end of ['from', 'to'] as const) {
      const ep = rel[end];
      if (!ep.project || !ep.repo) {
        add(
          [...at, end],
          'relationship_endpoint',
          `relationship '${rel.id}' ${end}: project and repo are required`,
        );
      } else if (
        !endpointNodeId(catalog, ep) &&
        !(ep.component === undefined && ep.path === undefined && opts.externalRepo?.(ep.project, ep.repo))
      ) {
        const what = ep.component
          ? `component ${ep.project}/${ep.repo}/${ep.component}`
          : ep.path
            ? `path '${ep.path}' in ${ep.project}/${ep.repo}`
            : `repo ${ep.project}/${ep.repo}`;
        add(
          [...at, end],
          'relationship_endpoint',
          `relationship '${rel.id}' ${end}: ${what} is not in the catalog${ep.component || ep.path ? ' or graph.nodes' : ', graph.nodes or an org index'}`,
        );
      }
    }
  });
}
