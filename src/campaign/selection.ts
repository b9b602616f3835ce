import {
  type Catalog,
  type CatalogRepo,
  didYouMean,
  normalizeTags,
  searchManifest,
  suggestionText,
} from '../catalog/index.js';
import { NotFoundError, ValidationError } from '../infra/index.js';
import { tagListToMap } from './legacy.js';
import { CAMPAIGN_LIMITS, REPO_REF_RE } from './schema.js';

export type TagMap = Record<string, string | number | boolean>;

/** `--tag k=v` arguments as a map (`k` alone: the tag is present); bounded like the document's tags. */
export function parseTagArgs(tags: readonly string[] | undefined, field = 'tag'): TagMap {
  if (!tags || tags.length === 0) return {};
  if (tags.length > CAMPAIGN_LIMITS.tags)
    throw new ValidationError(`${field}: ${tags.length} tags; at most ${CAMPAIGN_LIMITS.tags}`, {
      field,
      rule: `max ${CAMPAIGN_LIMITS.tags} tags`,
    });
  for (const t of tags) {
    const key = t.split('=', 1)[0]!.trim();
    if (key === '' || key.length > 64 || t.length > 320)
      throw new ValidationError(`${field}: '${t.slice(0, 80)}' is not k=v (a key of 1 to 64 characters)`, {
        field,
        value: t.slice(0, 200),
        rule: 'tag_k_v',
      });
  }
  return tagListToMap(tags);
}

/** The tags a repository is matched on: its project's, then its own (a repository's own value wins). */
export function mergedTags(catalog: Catalog, repo: CatalogRepo): TagMap {
  const project = (catalog.file.manifest.workspace?.projects ?? []).find((p) => p.name === repo.project);
  return { ...normalizeTags(project?.tags), ...repo.tags };
}

/** True when every wanted tag holds: `true` asks only that the tag is present (and not false). */
export function matchesTags(have: TagMap, want: TagMap): boolean {
  for (const [k, v] of Object.entries(want)) {
    if (!(k in have)) return false;
    const got = have[k];
    if (v === true) {
      if (got === false) return false;
    } else if (String(got) !== String(v)) return false;
  }
  return true;
}

/**
 * The workspace repositories a query and tags select, by id: the query is the manifest search (names, paths,
 * tags, descriptions: a project hit selects its repositories, a component hit its repository); the tags then
 * keep those whose merged project and repository tags match. Tags alone select from every repository.
 */
export function selectRepos(catalog: Catalog, sel: { query?: string; tags: TagMap }): CatalogRepo[] {
  let pool: CatalogRepo[] = catalog.repos.filter((r) => r.kind === 'workspace');
  const query = sel.query?.trim();
  if (query) {
    const ids = new Set<string>();
    const projects = new Set<string>();
    for (const hit of searchManifest(catalog, query, { limit: Number.MAX_SAFE_INTEGER }).hits) {
      if (hit.type === 'project') projects.add(hit.id);
      else ids.add(hit.id.split('/').slice(0, 2).join('/'));
    }
    pool = pool.filter((r) => ids.has(r.id) || projects.has(r.project));
  }
  const tags = sel.tags;
  return pool
    .filter((r) => matchesTags(mergedTags(catalog, r), tags))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** `project/repo` references checked against the catalog, de-duplicated in the order given. */
export function checkRepoRefs(catalog: Catalog, refs: readonly string[], field = 'repo'): CatalogRepo[] {
  const out: CatalogRepo[] = [];
  const seen = new Set<string>();
  for (const raw of refs) {
    const ref = raw.trim().replace(/\/+$/, '');
    checkRepoRef(catalog, ref, field);
    if (seen.has(ref)) continue;
    seen.add(ref);
    out.push(catalog.repoById.get(ref)!);
  }
  return out;
}

/** One `project/repo` of the manifest, or a NotFoundError naming the nearest ones. */
export function checkRepoRef(catalog: Catalog, ref: string, field = 'repo'): CatalogRepo {
  if (!REPO_REF_RE.test(ref))
    throw new ValidationError(`${field}: '${ref.slice(0, 120)}' is not <project>/<repo>`, {
      field,
      value: ref.slice(0, 200),
      rule: 'project/repo',
    });
  const repo = catalog.repoById.get(ref);
  if (repo?.kind === 'workspace') return repo;
  const suggestions = didYouMean(
    ref,
    catalog.repos.filter((r) => r.kind === 'workspace').map((r) => r.id),
  );
  throw new NotFoundError(`${field}: no repository '${ref}' in the manifest${suggestionText(suggestions)}`, {
    field,
    value: ref,
    rule: 'known_repository',
    suggestions,
  });
}
