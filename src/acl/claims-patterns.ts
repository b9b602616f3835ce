import { type CatalogComponent, didYouMean, suggestionText } from '../catalog/index.js';
import { NotFoundError, ValidationError } from '../infra/index.js';
import { CLAIM_LIMITS } from './claims-schema.js';
import { checkGlob, globMatches, literalGlob } from './glob/index.js';
import type { RepoTarget } from './repository-ref.js';

/** What a claim is about, as given: a component of the repository, patterns, or both. */
export interface ClaimScope {
  component?: string;
  patterns?: readonly string[];
}

/** The scope resolved: the component's name (when given) and the normalized patterns to store. */
export interface ResolvedScope {
  component?: string;
  patterns: string[];
}

/**
 * The glob that matches exactly `path` (a repository-relative folder) and everything under it: `<path>/**`, or
 * `**` for the repository root (`.`). The path is spelled literally by the glob engine (`a(b)` -> `a[(]b[)]`); a
 * path no pattern can spell is refused naming it.
 */
export function folderGlob(path: string, field = 'component'): string {
  if (path === '.' || path === '') return '**';
  let glob: string | undefined;
  try {
    glob = `${literalGlob(path, field)}/**`;
    if (checkGlob(glob, field) !== glob || !globMatches(glob, path) || !globMatches(glob, `${path}/x`))
      glob = undefined;
  } catch {
    glob = undefined;
  }
  if (glob === undefined)
    throw new ValidationError(
      `${field}: the path '${path}' cannot be claimed as a literal folder (it climbs out with '..', or no claim pattern spells it); pass --pattern instead`,
      { field, value: path, rule: 'literal_component_path' },
    );
  return glob;
}

/** The component named `ref` (its name, or its `<project>/<repo>/<name>` id) in the target repository. */
export function findRepoComponent(
  components: readonly CatalogComponent[],
  target: RepoTarget,
  ref: string,
): CatalogComponent {
  const name = ref.trim();
  const hit = components.find((c) => c.name === name || c.id === name);
  if (hit) return hit;
  const suggestions = didYouMean(
    name,
    components.map((c) => c.name),
  );
  throw new NotFoundError(
    `component: no component '${name}' in repository ${target.id}${suggestionText(suggestions)}`,
    {
      field: 'component',
      value: name,
      rule: 'unknown_component',
      repository: target.id,
      suggestions,
      known_components: components.slice(0, 50).map((c) => c.name),
    },
  );
}

/** Validates and normalizes explicit patterns (each through the glob engine), dropping exact duplicates. */
export function normalizePatterns(patterns: readonly string[], field = 'patterns'): string[] {
  if (patterns.length > CLAIM_LIMITS.maxPatterns)
    throw new ValidationError(
      `${field}: ${patterns.length} patterns given; a claim holds at most ${CLAIM_LIMITS.maxPatterns}`,
      { field, value: patterns.length, rule: 'max_patterns', limit: CLAIM_LIMITS.maxPatterns },
    );
  const out: string[] = [];
  patterns.forEach((p, i) => {
    const n = checkGlob(p, `${field}[${i}]`);
    if (!out.includes(n)) out.push(n);
  });
  return out;
}

/**
 * The spec's rule of a claim's scope. With a component, its name is stored; no patterns expand to
 * `<component path>/**` (`**` for the path `.`), explicit patterns are stored as given (normalized, never
 * rewritten against the component's path). Without a component, patterns are required.
 */
export function resolveClaimScope(
  components: readonly CatalogComponent[],
  target: RepoTarget,
  scope: ClaimScope,
): ResolvedScope {
  const given = scope.patterns ?? [];
  if (scope.component === undefined || scope.component.trim() === '') {
    if (given.length === 0)
      throw new ValidationError(
        'patterns: give at least one --pattern, or --component to claim a catalogued component',
        { field: 'patterns', value: [], rule: 'patterns_or_component' },
      );
    return { patterns: normalizePatterns(given) };
  }
  const component = findRepoComponent(components, target, scope.component);
  const patterns = given.length > 0 ? normalizePatterns(given) : [folderGlob(component.path)];
  return { component: component.name, patterns };
}
