import { readOrgIndexes } from './org-store.js';

/** Answers whether `<organization>/<name>` names an indexed repository (how a graph endpoint names one). */
export interface IndexedNames {
  has(organization: string, name: string): boolean;
  /** True once a question made it read the indexes. */
  readonly consulted: boolean;
}

/**
 * The indexed repositories of a workspace by `<organization>/<name>`. The indexes are read on the first question
 * only: loading a manifest asks only about relationship endpoints the catalog does not know, which most never have.
 */
export function indexedNames(root: string): IndexedNames {
  let names: Set<string> | undefined;
  return {
    has(organization, name) {
      names ??= new Set(readOrgIndexes(root).flatMap((f) => f.repos.map((r) => `${r.namespace}/${r.name}`)));
      return names.has(`${organization}/${name}`);
    },
    get consulted() {
      return names !== undefined;
    },
  };
}
