import { AmbiguousError, NotFoundError, ValidationError } from '../infra/index.js';
import type { Catalog, CatalogComponent } from './catalog.js';
import { didYouMean, suggestionText } from './suggest.js';

export interface Scope {
  project?: string;
  repo?: string;
}

/** Strips the resolver prefix `component:` from an identity. */
export function stripResolverPrefix(ref: string): string {
  return ref.startsWith('component:') ? ref.slice('component:'.length) : ref;
}

/**
 * Finds one component by name, `<project>/<repo>/<name>` id or `component:` resolver id.
 * A name that matches several components is an AmbiguousError listing them.
 */
export function findComponent(
  catalog: Catalog,
  ref: string,
  scope: Scope = {},
  notFoundStatus?: number,
): CatalogComponent {
  const key = stripResolverPrefix(ref.trim());
  if (key === '')
    throw new ValidationError('component is required: pass a name or a <project>/<repo>/<component> id', {
      field: 'component',
    });
  const parts = key.split('/');
  if (parts.length === 3) {
    const [p, r] = parts as [string, string, string];
    if ((scope.project && scope.project !== p) || (scope.repo && scope.repo !== r)) {
      throw new ValidationError(
        `component id '${key}' disagrees with --project ${scope.project ?? '(any)'} --repo ${scope.repo ?? '(any)'}`,
        {
          field: 'component',
          value: key,
          project: scope.project,
          repo: scope.repo,
          rule: 'id_scope_mismatch',
        },
      );
    }
    const hit = catalog.componentById.get(key);
    if (!hit) {
      const suggestions = didYouMean(key, catalog.componentById.keys());
      throw new NotFoundError(
        `no component with id '${key}'${suggestionText(suggestions)}`,
        { field: 'component', value: key, suggestions },
        notFoundStatus,
      );
    }
    return hit;
  }
  if (parts.length !== 1) {
    throw new ValidationError(`component '${key}' is neither a name nor a <project>/<repo>/<component> id`, {
      field: 'component',
      value: key,
      rule: 'identity_shape',
    });
  }
  const all = catalog.componentsByName.get(key) ?? [];
  const hits = all.filter(
    (c) => (!scope.project || c.project === scope.project) && (!scope.repo || c.repo === scope.repo),
  );
  if (hits.length === 0) {
    const where = scope.project || scope.repo ? ` in ${scope.project ?? '*'}/${scope.repo ?? '*'}` : '';
    const inScope = catalog.components.filter(
      (c) => (!scope.project || c.project === scope.project) && (!scope.repo || c.repo === scope.repo),
    );
    const suggestions = didYouMean(
      key,
      inScope.map((c) => c.name),
    );
    throw new NotFoundError(
      `no component named '${key}'${where}${suggestionText(suggestions)}`,
      { field: 'component', value: key, ...scope, suggestions },
      notFoundStatus,
    );
  }
  if (hits.length > 1) {
    const candidates = hits.map((c) => c.id);
    throw new AmbiguousError(
      `component name '${key}' is ambiguous: ${candidates.join(', ')}; pass --project and --repo or a full id`,
      { field: 'component', value: key, candidates },
    );
  }
  return hits[0]!;
}

/** The public view of a component returned by list and show. */
export function componentView(c: CatalogComponent): Record<string, unknown> {
  const { name: _n, path: _p, depends_on: _d, ...rest } = c.raw;
  return {
    id: c.id,
    project: c.project,
    repo: c.repo,
    name: c.name,
    path: c.path,
    depends_on: c.depends_on,
    ...rest,
  };
}
