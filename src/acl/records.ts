import { type CoordDeps, readDoc, updateDoc } from '../coord/index.js';
import { HubError } from '../infra/index.js';

/** The ACL collections; each keeps one document per repository (`claims/<project>~<repo>`), agents one per agent. */
export const ACL = {
  branches: 'branches',
  leases: 'leases',
  worktrees: 'worktrees',
  claims: 'claims',
  agents: 'agents',
  /** Ports leased to worktrees, one document per machine. */
  ports: 'ports',
} as const;
export type AclCollection = (typeof ACL)[keyof typeof ACL];

/**
 * What every ACL function needs: the store, its retry budget and a clock (the coordination room's ports). Reads
 * parse with `readDoc`; read-modify-writes use `updateDoc`, atomic where the backend serializes writers (local,
 * memory), else compare-and-swap with retries.
 */
export type AclDeps = CoordDeps;
export { readDoc as readAcl, updateDoc as updateAcl };

/** The store name of a collection's document: `claims/platform~identity`. */
export function aclDocument(collection: AclCollection, key: string): string {
  return `${collection}/${key}`;
}

/** The names of a collection's documents (the store's `list`), for listings that span repositories. */
export async function aclDocuments(
  deps: Pick<AclDeps, 'store'>,
  collection: AclCollection,
): Promise<string[]> {
  if (!deps.store.list)
    throw new HubError('internal', `the ${deps.store.backend} state backend cannot list documents`, {
      backend: deps.store.backend,
    });
  // Sorted: every backend lists in its own order, and paged lists need one that holds from page to page.
  return (await deps.store.list(collection)).sort();
}
