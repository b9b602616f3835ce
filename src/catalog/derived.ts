import { isDeepStrictEqual } from 'node:util';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import {
  type DerivedSource,
  formatPointer,
  NAME_RE,
  type PatchOperation,
  type Project,
  type Repo,
} from '../model/index.js';
import type { Catalog } from './catalog.js';
import { normalizeTags } from './catalog.js';
import {
  derivedRepo,
  IDENTITY_FIELDS,
  projectIndex,
  type Selection,
  sourceRepo,
  takenComponents,
  withDependencies,
} from './derived-select.js';
import { didYouMean, suggestionText } from './suggest.js';

/**
 * Derived working sets (spec: "CLI: derived working sets"): a project whose repos are taken from other projects,
 * whole or a few components at a time. Each change is planned here as patch operations on the manifest (the one
 * format Config Studio uses), so the save keeps every line it does not change.
 */
export interface DerivedPlan<R> {
  operations: PatchOperation[];
  result: R;
}

/** One repo of the set as a result shows it. */
export interface DerivedRepoView {
  name: string;
  from: string;
  /** The allow-list, or `all` when the repo takes its source's whole list. */
  components: string[] | 'all';
}

const projectPath = (pi: number, ...rest: Array<string | number>) =>
  formatPointer(['workspace', 'projects', pi, ...rest]);

function projectsOf(catalog: Catalog): Project[] {
  return catalog.file.manifest.workspace?.projects ?? [];
}

function view(sel: Selection): DerivedRepoView {
  return { name: sel.repo, from: `${sel.project}/${sel.repo}`, components: sel.components ?? 'all' };
}

/** Sources grouped per source project; allow-lists per source repo (rule 6). */
function sourcesOf(selections: readonly Selection[]): DerivedSource[] {
  const out: DerivedSource[] = [];
  for (const s of selections) {
    let src = out.find((o) => o.project === s.project);
    if (!src) {
      src = { project: s.project, repos: [] };
      out.push(src);
    }
    src.repos!.push(s.repo);
    if (s.components) src.components = { ...src.components, [s.repo]: [...s.components] };
  }
  return out;
}

export interface CreateInput {
  name: string;
  selection: Selection;
  include_dependencies?: boolean;
  description?: string;
}

export function planDerivedCreate(
  catalog: Catalog,
  input: CreateInput,
  now: string,
): DerivedPlan<{
  project: string;
  operation: 'created';
  repos: DerivedRepoView[];
  sources: DerivedSource[];
}> {
  if (catalog.isApplication && projectsOf(catalog).length === 0)
    throw new RefusedError(
      'cannot create a derived working set in an application manifest (no workspace.projects)',
      {
        rule: 'application_manifest',
      },
    );
  if (!NAME_RE.test(input.name))
    throw new ValidationError(`name '${input.name}' is not a project name (letters, digits, '.', '_', '-')`, {
      field: 'name',
      value: input.name,
      rule: 'name',
    });
  if (projectIndex(projectsOf(catalog), input.name) >= 0)
    throw new RefusedError(
      `project '${input.name}' exists already; change a derived set with project derived include|exclude|refresh`,
      { field: 'name', value: input.name, rule: 'already_exists' },
      409,
    );
  const selections = input.include_dependencies
    ? withDependencies(catalog, input.selection)
    : [input.selection];
  const seen = new Map<string, string>();
  for (const s of selections) {
    const other = seen.get(s.repo);
    if (other)
      throw new RefusedError(
        `repos ${other}/${s.repo} and ${s.project}/${s.repo} would have the same name in '${input.name}'`,
        { field: 'from', value: `${s.project}/${s.repo}`, rule: 'duplicate_repo' },
        409,
      );
    seen.set(s.repo, s.project);
  }
  const sources = sourcesOf(selections);
  const project: Project = {
    name: input.name,
    ...(input.description ? { description: input.description } : {}),
    derived: { enabled: true, sources },
    repos: selections.map((s) =>
      derivedRepo(s.project, sourceRepo(catalog, s.project, s.repo).raw!, s.components, now),
    ),
  };
  return {
    operations: [{ op: 'append', path: '/workspace/projects', value: project }],
    result: { project: input.name, operation: 'created', repos: selections.map(view), sources },
  };
}

interface DerivedProject {
  pi: number;
  project: Project;
  sources: DerivedSource[];
}

/** The derived project `name`, refused when it is an ordinary project. */
function derivedProject(catalog: Catalog, name: string): DerivedProject {
  const projects = projectsOf(catalog);
  const pi = projectIndex(projects, name);
  if (pi < 0) {
    const suggestions = didYouMean(
      name,
      projects.filter((p) => p.derived).map((p) => p.name),
    );
    throw new NotFoundError(`no derived working set '${name}'${suggestionText(suggestions)}`, {
      field: 'name',
      value: name,
      suggestions,
    });
  }
  const project = projects[pi]!;
  if (!project.derived)
    throw new RefusedError(
      `project '${name}' is not a derived working set (it has no derived: block); create one with project derived create`,
      { field: 'name', value: name, rule: 'not_derived' },
    );
  return { pi, project, sources: structuredClone(project.derived.sources ?? []) };
}

function sourceEntry(sources: DerivedSource[], project: string): DerivedSource {
  let src = sources.find((s) => s.project === project);
  if (!src) {
    src = { project, repos: [] };
    sources.push(src);
  }
  src.repos ??= [];
  return src;
}

function setAllow(src: DerivedSource, repo: string, allow: string[] | undefined): void {
  const rest = { ...src.components };
  delete rest[repo];
  if (allow) rest[repo] = allow;
  if (Object.keys(rest).length > 0) src.components = rest;
  else delete src.components;
}

/** Sources without repos go; what is left is written as the whole `derived.sources` list (hub owns it). */
function setSources(d: DerivedProject): PatchOperation {
  const sources = d.sources.filter((s) => (s.repos ?? []).length > 0);
  return { op: 'set', path: projectPath(d.pi, 'derived', 'sources'), value: sources };
}

export type IncludeOutcome = 'added' | 'merged' | 'widened' | 'noop';

export function planDerivedInclude(
  catalog: Catalog,
  input: { name: string; selection: Selection },
  now: string,
): DerivedPlan<{ project: string; operation: IncludeOutcome; repo: DerivedRepoView }> {
  const d = derivedProject(catalog, input.name);
  const sel = input.selection;
  const source = sourceRepo(catalog, sel.project, sel.repo).raw!;
  const ri = d.project.repos.findIndex((r) => r.name === sel.repo);
  const existing = d.project.repos[ri];
  const src = sourceEntry(d.sources, sel.project);
  const done = (operation: IncludeOutcome, operations: PatchOperation[], allow: string[] | undefined) => ({
    operations,
    result: { project: input.name, operation, repo: view({ ...sel, components: allow }) },
  });
  if (!existing) {
    src.repos!.push(sel.repo);
    if (sel.components) setAllow(src, sel.repo, sel.components);
    return done(
      'added',
      [
        setSources(d),
        {
          op: 'append',
          path: projectPath(d.pi, 'repos'),
          value: derivedRepo(sel.project, source, sel.components, now),
        },
      ],
      sel.components,
    );
  }
  const from = existing.derived_from;
  if (!from || from.project !== sel.project || from.repo !== sel.repo)
    throw new RefusedError(
      `'${input.name}' has a repo named '${sel.repo}' already${from ? `, taken from ${from.project}/${from.repo}` : ''}`,
      { field: 'from', value: `${sel.project}/${sel.repo}`, rule: 'duplicate_repo' },
      409,
    );
  if (!src.repos!.includes(sel.repo)) src.repos!.push(sel.repo);
  const allow = src.components?.[sel.repo];
  let next: string[] | undefined;
  let outcome: IncludeOutcome;
  if (allow === undefined) {
    // The repo takes the whole list already: a component or the repo again adds nothing.
    return done('noop', [], undefined);
  } else if (sel.components) {
    // Rule 4: a second component on an already-derived repo joins the allow-list and the repo's components.
    const fresh = sel.components.filter((c) => !allow.includes(c));
    if (fresh.length === 0) return done('noop', [], allow);
    next = [...allow, ...fresh];
    outcome = 'merged';
  } else {
    // Rule 5: a two-segment include on an existing repo widens it to the source's full list.
    next = undefined;
    outcome = 'widened';
  }
  setAllow(src, sel.repo, next);
  return done(
    outcome,
    [
      setSources(d),
      { op: 'set', path: projectPath(d.pi, 'repos', ri, 'components'), value: takenComponents(source, next) },
    ],
    next,
  );
}

/** Tags after a refresh: the source's win on keys both have; keys only the derived repo has are kept. */
function mergedTags(local: Repo['tags'], source: Repo['tags']): Repo['tags'] {
  if (local === undefined) return source;
  if (source === undefined) return local;
  return { ...normalizeTags(local), ...normalizeTags(source) };
}

export function planDerivedRefresh(
  catalog: Catalog,
  input: { name: string },
  now: string,
): DerivedPlan<{
  project: string;
  refreshed: string[];
  missing_sources: string[];
  missing_components: string[];
}> {
  const d = derivedProject(catalog, input.name);
  const operations: PatchOperation[] = [];
  const refreshed: string[] = [];
  const missingSources: string[] = [];
  const missingComponents: string[] = [];
  d.project.repos.forEach((repo, ri) => {
    const from = repo.derived_from;
    if (!from) return;
    const source = catalog.repoById.get(`${from.project}/${from.repo}`)?.raw;
    if (!source) {
      missingSources.push(`${from.project}/${from.repo}`);
      return;
    }
    const allow = d.sources.find((s) => s.project === from.project)?.components?.[from.repo];
    const have = new Set((source.components ?? []).map((c) => c.name));
    for (const c of allow ?? [])
      if (!have.has(c)) missingComponents.push(`${from.project}/${from.repo}/${c}`);
    const want = derivedRepo(from.project, source, allow, now);
    want.tags = mergedTags(repo.tags, source.tags);
    const at = (...rest: Array<string | number>) => projectPath(d.pi, 'repos', ri, ...rest);
    for (const key of [...IDENTITY_FIELDS, 'tags', 'components'] as const) {
      if (isDeepStrictEqual(repo[key], want[key])) continue;
      operations.push(
        want[key] === undefined
          ? { op: 'unset', path: at(key) }
          : { op: 'set', path: at(key), value: want[key] },
      );
    }
    operations.push({ op: 'set', path: at('derived_from', 'refreshed_at'), value: now });
    refreshed.push(repo.name);
  });
  return {
    operations,
    result: {
      project: input.name,
      refreshed,
      missing_sources: missingSources,
      missing_components: missingComponents,
    },
  };
}

export function planDerivedExclude(
  catalog: Catalog,
  input: { name: string; repo: string; component?: string },
): DerivedPlan<{
  project: string;
  operation: 'removed_repo' | 'removed_component';
  repo: string;
  component?: string;
}> {
  const d = derivedProject(catalog, input.name);
  const ri = d.project.repos.findIndex((r) => r.name === input.repo);
  const repo = d.project.repos[ri];
  if (!repo) {
    const suggestions = didYouMean(
      input.repo,
      d.project.repos.map((r) => r.name),
    );
    throw new NotFoundError(`'${input.name}' has no repo '${input.repo}'${suggestionText(suggestions)}`, {
      field: 'repo',
      value: input.repo,
      suggestions,
    });
  }
  const from = repo.derived_from ?? { project: input.name, repo: repo.name };
  const src = sourceEntry(d.sources, from.project);
  if (input.component === undefined) {
    src.repos = src.repos!.filter((r) => r !== from.repo);
    setAllow(src, from.repo, undefined);
    return {
      operations: [setSources(d), { op: 'remove', path: projectPath(d.pi, 'repos', ri) }],
      result: { project: input.name, operation: 'removed_repo', repo: input.repo },
    };
  }
  const current = (repo.components ?? []).map((c) => c.name);
  const allow = src.components?.[from.repo] ?? current;
  if (!allow.includes(input.component))
    throw new NotFoundError(`'${input.name}/${input.repo}' has no component '${input.component}'`, {
      field: 'component',
      value: input.component,
      components: allow,
    });
  const next = allow.filter((c) => c !== input.component);
  if (next.length === 0)
    throw new RefusedError(
      `excluding '${input.component}' would leave '${input.name}/${input.repo}' no component; exclude the repo instead (--repo ${input.repo} without --component)`,
      { field: 'component', value: input.component, rule: 'empty_allow_list' },
    );
  // Rule 6: the allow-list is this repo's own; the source's other repos keep theirs (or their whole lists).
  setAllow(src, from.repo, next);
  const kept = takenComponents({ ...repo, components: repo.components ?? [] }, next);
  return {
    operations: [
      setSources(d),
      { op: 'set', path: projectPath(d.pi, 'repos', ri, 'components'), value: kept },
    ],
    result: {
      project: input.name,
      operation: 'removed_component',
      repo: input.repo,
      component: input.component,
    },
  };
}
