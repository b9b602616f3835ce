import { NotFoundError, ValidationError } from '../infra/index.js';
import { type Component, NAME_RE, type Project, type Repo } from '../model/index.js';
import type { Catalog, CatalogRepo } from './catalog.js';
import { allEdges } from './graph.js';
import { didYouMean, suggestionText } from './suggest.js';

/** What a derived working set takes from one source repo: all its components, or an allow-list of them. */
export interface Selection {
  project: string;
  repo: string;
  /** Undefined: the repo's whole components list (a two-segment selection). */
  components?: string[];
}

export interface SelectionInput {
  from?: string;
  project?: string;
  repo?: string;
  component?: string;
}

/**
 * Reads `--from <project>/<repo>[/<component>]`, or the same as separate project, repo and component fields (the
 * MCP tool's form); both given must agree. The repo and component must exist in the catalog.
 */
export function parseSelection(catalog: Catalog, input: SelectionInput): Selection {
  let { project, repo, component } = input;
  if (input.from !== undefined) {
    const parts = input.from.split('/');
    if (parts.length < 2 || parts.length > 3 || parts.some((p) => !NAME_RE.test(p)))
      throw new ValidationError(
        `from '${input.from}' is not <project>/<repo> or <project>/<repo>/<component>`,
        { field: 'from', value: input.from, rule: 'selection_shape' },
      );
    const [p, r, c] = parts as [string, string, string | undefined];
    for (const [field, given, parsed] of [
      ['project', project, p],
      ['repo', repo, r],
      ['component', component, c],
    ] as const) {
      if (given !== undefined && given !== parsed)
        throw new ValidationError(`${field} '${given}' disagrees with from '${input.from}'`, {
          field,
          value: given,
          rule: 'from_conflict',
        });
    }
    [project, repo, component] = [p, r, c];
  }
  if (!project || !repo)
    throw new ValidationError('pass --from <project>/<repo>[/<component>] (or project and repo)', {
      field: 'from',
      rule: 'required',
    });
  const source = sourceRepo(catalog, project, repo);
  if (component === undefined) return { project, repo };
  const names = (source.raw?.components ?? []).map((c) => c.name);
  if (!names.includes(component)) {
    const suggestions = didYouMean(component, names);
    throw new NotFoundError(
      `repo ${source.id} has no component '${component}'${suggestionText(suggestions)}`,
      { field: 'component', value: component, repository: source.id, suggestions },
    );
  }
  return { project, repo, components: [component] };
}

export function sourceRepo(catalog: Catalog, project: string, repo: string): CatalogRepo {
  const id = `${project}/${repo}`;
  const hit = catalog.repoById.get(id);
  if (hit?.kind === 'workspace') return hit;
  const suggestions = didYouMean(id, catalog.repoById.keys());
  throw new NotFoundError(`no repository ${id} to derive from${suggestionText(suggestions)}`, {
    field: 'from',
    value: id,
    suggestions,
  });
}

/**
 * Rule 3 (`--include-dependencies`, create only): the selection plus the outbound `depends_on` neighbours of its
 * components at depth 1: same-repo `depends_on` and declared relationships of type `depends_on`, which may name a
 * component (taken alone) or a whole repo of another project.
 */
export function withDependencies(catalog: Catalog, sel: Selection): Selection[] {
  const repoId = `${sel.project}/${sel.repo}`;
  const mine = new Set(
    (catalog.componentsByRepo.get(repoId) ?? [])
      .filter((c) => !sel.components || sel.components.includes(c.name))
      .map((c) => `component:${c.id}`),
  );
  mine.add(`repo:${repoId}`);
  const out: Selection[] = [{ ...sel, components: sel.components && [...sel.components] }];
  const add = (project: string, repo: string, component?: string) => {
    const hit = out.find((s) => s.project === project && s.repo === repo);
    if (!hit) out.push({ project, repo, components: component === undefined ? undefined : [component] });
    else if (hit.components && component === undefined) hit.components = undefined;
    else if (hit.components && component !== undefined && !hit.components.includes(component))
      hit.components.push(component);
  };
  for (const e of allEdges(catalog)) {
    if (e.type !== 'depends_on' || !mine.has(e.from)) continue;
    const [kind, id] = [e.to.slice(0, e.to.indexOf(':')), e.to.slice(e.to.indexOf(':') + 1)];
    const [p, r, c] = id.split('/') as [string, string, string | undefined];
    if (!catalog.repoById.has(`${p}/${r}`)) continue;
    add(p, r, kind === 'component' ? c : undefined);
  }
  return out;
}

/** The checkout a derived repo shares with its source: the source's path, or where its url is cloned. */
export function sharedPath(project: string, repo: Repo): string {
  return repo.path ?? `${project}/${repo.name}`;
}

/**
 * The source's components a derived repo takes: all, or those of the allow-list (in the source's order). A
 * `depends_on` naming a component not taken is dropped, or the copy would not validate.
 */
export function takenComponents(source: Repo, allow: readonly string[] | undefined): Component[] {
  const list = (source.components ?? []).filter((c) => !allow || allow.includes(c.name));
  const names = new Set(list.map((c) => c.name));
  return list.map((c) => {
    const copy = structuredClone(c);
    if (copy.depends_on) {
      copy.depends_on = copy.depends_on.filter((d) => names.has(d));
      if (copy.depends_on.length === 0) delete copy.depends_on;
    }
    return copy;
  });
}

/** Fields of a repo that come from its source on create and refresh (agent_* and derived_from stay local). */
export const IDENTITY_FIELDS = ['path', 'url', 'description', 'default_branch', 'ci'] as const;

/**
 * The repo entry a derived set holds for `source`: identity and tags from the source, `path` shared (never `url`
 * too: a repo has exactly one locator), components per the allow-list, and where it came from.
 */
export function derivedRepo(
  sourceProject: string,
  source: Repo,
  allow: readonly string[] | undefined,
  now: string,
): Repo {
  const out: Repo = { name: source.name, path: sharedPath(sourceProject, source) };
  if (source.description !== undefined) out.description = source.description;
  if (source.default_branch !== undefined) out.default_branch = source.default_branch;
  if (source.ci !== undefined) out.ci = structuredClone(source.ci);
  if (source.tags !== undefined) out.tags = structuredClone(source.tags);
  const components = takenComponents(source, allow);
  if (components.length > 0 || source.components) out.components = components;
  out.derived_from = { project: sourceProject, repo: source.name, refreshed_at: now };
  return out;
}

/** Finds the derived project `name`; a project that is not a derived working set is refused by the caller. */
export function projectIndex(projects: readonly Project[], name: string): number {
  return projects.findIndex((p) => p.name === name);
}
