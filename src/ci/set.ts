import type { Catalog, CatalogRepo } from '../catalog/index.js';
import { RefusedError } from '../infra/index.js';
import { editManifestFile, yaml } from '../model/index.js';
import { type CiDescriptor, declaredCi } from './descriptor.js';

const KEYS = ['provider', 'workflow', 'pipeline', 'url'] as const;

const same = (a: CiDescriptor | null, b: CiDescriptor | null): boolean =>
  KEYS.every((k) => (a?.[k] ?? undefined) === (b?.[k] ?? undefined)) && (a === null) === (b === null);

/**
 * Records (or with null removes) a repository's `ci` in the manifest through the comment-keeping editor: a map
 * already there is edited key by key (its comments and flow style stay), a descriptor with only a provider is
 * written as the short string form. Writes nothing when the manifest already says the same.
 */
export function writeRepoCi(
  catalog: Catalog,
  repo: CatalogRepo,
  next: CiDescriptor | null,
): { changed: boolean; previous: CiDescriptor | null } {
  if (repo.kind === 'application' || !repo.yamlPath) {
    throw new RefusedError(
      'cannot record ci on an application manifest: it has no workspace repos entry to hold it; declare workspace.projects[].repos',
      { repository: repo.id, rule: 'application_manifest' },
    );
  }
  const previous = declaredCi(repo.raw?.ci);
  if (same(previous, next)) return { changed: false, previous };
  const repoPath = repo.yamlPath;
  const path = [...repoPath, 'ci'];
  editManifestFile(
    catalog.file.path,
    (doc) => {
      if (next === null) {
        doc.deleteIn(path);
        return;
      }
      const onlyProvider = KEYS.every((k) => k === 'provider' || next[k] === undefined);
      const existing = doc.getIn(path, true);
      // A scalar keeps its node (and so its comment) when only its value changes.
      if (onlyProvider && yaml().isScalar(existing)) {
        existing.value = next.provider;
        return;
      }
      if (onlyProvider) {
        doc.setIn(path, next.provider);
        return;
      }
      if (!yaml().isMap(existing)) {
        const value = Object.fromEntries(KEYS.flatMap((k) => (next[k] == null ? [] : [[k, next[k]]])));
        // `ci: jenkins # why` becomes `ci: # why` above the new map: the comment stays on its line.
        const comment = yaml().isScalar(existing) ? existing.comment : undefined;
        doc.setIn(path, doc.createNode(value));
        const pair = (
          doc.getIn(repoPath, true) as { items?: Array<{ key: unknown }> } | undefined
        )?.items?.find((p) => yaml().isScalar(p.key) && p.key.value === 'ci');
        if (comment && pair && yaml().isScalar(pair.key)) pair.key.comment = comment;
        return;
      }
      for (const k of KEYS) {
        if (next[k] == null) {
          if (existing.has(k)) existing.delete(k);
        } else if (existing.get(k) !== next[k]) existing.set(k, next[k]);
      }
    },
    catalog.file.maxBytes,
  );
  return { changed: true, previous };
}
