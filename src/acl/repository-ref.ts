import { type Catalog, type CatalogRepo, type Checkouts, scopeMiss } from '../catalog/index.js';
import { NotFoundError, RefusedError, realpathOrUndefined, runGit, ValidationError } from '../infra/index.js';

/** The repository an ACL record is about. */
export interface RepoTarget {
  /** `<project>/<repo>`, or `self` for a definition repository the manifest does not list. */
  id: string;
  /** The key of its documents in a collection (`platform~identity`, `self`). */
  key: string;
  /** The real checkout folder; undefined when the repository is not checked out. */
  root: string | undefined;
  /** The catalog entry, when the manifest lists the repository. */
  repo?: CatalogRepo;
  /** True when reached as `.` or `self`. */
  self: boolean;
}

/** What resolving a `--repository` needs: the catalog, the checkout judge and the manifest's folder. */
export interface RepoResolveDeps {
  catalog: Catalog;
  checkouts: Checkouts;
  /** Folder of the manifest (its git repository is `.` / `self`). */
  definitionRoot: string;
}

const REF_RULE = 'project/repo, or . or self for the repository holding the manifest';

/** The key of a repository id in a collection: `/` cannot appear in a key, and `~` never appears in names. */
export function repoKey(id: string): string {
  return id.replace('/', '~');
}

/**
 * Resolves `--repository`: `<project>/<repo>` of the manifest (unknown names get "did you mean"), or `.` / `self`,
 * the git repository holding the manifest, which is that catalog repository when the manifest lists it. A
 * repository outside the workspace is refused (Checkouts), and so is `self` when the manifest lies below its
 * repository's root, unless the user's own config allows that root.
 */
export async function resolveRepository(deps: RepoResolveDeps, ref: string): Promise<RepoTarget> {
  const text = ref.trim();
  if (text === '.' || text === 'self') return resolveSelf(deps, text);
  const parts = text.split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1])
    throw new ValidationError(`repository: '${ref}' is not a repository reference; expected ${REF_RULE}`, {
      field: 'repository',
      value: ref,
      rule: 'project/repo',
    });
  const repo = deps.catalog.repoById.get(text);
  if (!repo) {
    const miss = scopeMiss(deps.catalog, parts[0], parts[1], {
      project: 'unknown_project',
      repo: 'unknown_repository',
    });
    throw new NotFoundError(miss.message, { ...miss.details, field: 'repository', value: ref });
  }
  return targetOf(deps, repo, false);
}

function targetOf(deps: RepoResolveDeps, repo: CatalogRepo, self: boolean): RepoTarget {
  const c = deps.checkouts.of(repo);
  if (c.state === 'outside') throw c.error;
  return { id: repo.id, key: repoKey(repo.id), root: c.state === 'present' ? c.dir : undefined, repo, self };
}

async function resolveSelf(deps: RepoResolveDeps, ref: string): Promise<RepoTarget> {
  const r = await runGit(['rev-parse', '--show-toplevel'], { cwd: deps.definitionRoot });
  const top = r.stdout.trim();
  if (r.code !== 0 || top === '')
    throw new ValidationError(
      `repository: '.' and 'self' mean the git repository holding the manifest, and ${deps.definitionRoot} is not in one`,
      { field: 'repository', value: 'self', rule: 'definition_repository' },
    );
  // The manifest in a folder below its repository's root (tools/ws of a monorepo): the repository is more than the
  // workspace, and an agent given the workspace would branch, merge and check out the whole of it. Only the
  // user's own config may allow that root, as for any folder outside the workspace.
  const real = realpathOrUndefined(top) ?? top;
  if (deps.checkouts.placeOf(real) === 'outside')
    throw new RefusedError(
      `repository: '${ref}' means the git repository holding the manifest, whose root ${real} lies above the workspace ${deps.definitionRoot}; ` +
        `hub acts on no repository beyond the workspace unless you allow it: add ${real} to workspace.allowed_outside_paths in your user config or to HUB_ALLOWED_OUTSIDE_PATHS, or name a repository of the manifest`,
      {
        field: 'repository',
        value: ref,
        rule: 'definition_repository_inside_workspace',
        repository_root: real,
        workspace: deps.definitionRoot,
      },
    );
  for (const repo of deps.catalog.repos) {
    const c = deps.checkouts.of(repo);
    if (c.state === 'present' && c.dir === top) return targetOf(deps, repo, true);
  }
  return { id: 'self', key: 'self', root: top, self: true };
}
