import { type Catalog, type Problem, validateCatalog } from '../catalog/index.js';

/** Manifest-only problems per loaded catalog, with the reserved names they were judged against. */
const memo = new WeakMap<Catalog, { reserved: string; problems: Problem[] }>();
let runs = 0;

/** How many times the manifest rules actually ran (a server test's timing-free signal that the memo holds). */
export function manifestRuleRuns(): number {
  return runs;
}

/**
 * The problems of `config validate` that need no filesystem, once per loaded manifest: the servers share one
 * loaded workspace while the file's stat is unchanged (workspace-memo.ts), so a summary or health request on an
 * unchanged manifest does not judge 200,000 components again; an edit loads a new catalog and is judged anew.
 * Reserved names come from the application config, re-read per request: they are part of the key. An answer that
 * consulted the org index is not kept (the index may change while the manifest does not).
 */
export function manifestProblemsOf(
  catalog: Catalog,
  reservedNames: string[],
  externalRepo?: (organization: string, name: string) => boolean,
): Problem[] {
  const reserved = JSON.stringify(reservedNames);
  const hit = memo.get(catalog);
  if (hit?.reserved === reserved) return hit.problems;
  runs++;
  let consulted = false;
  const problems = validateCatalog(catalog, {
    filesystem: false,
    reservedNames,
    externalRepo: externalRepo
      ? (organization, name) => {
          consulted = true;
          return externalRepo(organization, name);
        }
      : undefined,
  });
  if (!consulted) memo.set(catalog, { reserved, problems });
  return problems;
}
