import { RefusedError } from '../infra/index.js';
import { editManifestFile, ensureSeq } from '../model/index.js';
import type { Catalog, CatalogRepo } from './catalog.js';
import type { ComponentDraft } from './init.js';

/** Components to append to one repository. */
export interface RepoDrafts {
  repo: CatalogRepo;
  drafts: ComponentDraft[];
}

/** The manifest entry of a draft: a role (examples, benchmarks, ...) is written as the tag `role`. */
function entryOf(d: ComponentDraft): Record<string, unknown> {
  return {
    name: d.name,
    path: d.path,
    kind: d.kind,
    ...(d.language ? { language: d.language } : {}),
    ...(d.role ? { tags: { role: d.role } } : {}),
  };
}

/**
 * Appends components to `repos[].components[]` of one workspace repo, keeping the file's comments.
 * Application manifests have no repos[] to write into, so applying there is refused.
 */
export function appendComponents(catalog: Catalog, repo: CatalogRepo, drafts: ComponentDraft[]): void {
  appendComponentsToRepos(catalog, [{ repo, drafts }]);
}

/**
 * Appends the components of several repositories in one edit of the manifest: one parse, one validation and one
 * atomic write, so a detect over many repositories costs one write and a failure leaves the file as it was.
 */
export function appendComponentsToRepos(catalog: Catalog, groups: readonly RepoDrafts[]): void {
  for (const { repo } of groups)
    if (repo.kind === 'application' || !repo.yamlPath) {
      throw new RefusedError(
        'cannot apply to an application manifest with no workspace repos: add the component under paths[] by hand, or declare workspace.projects[].repos',
        { repository: repo.id, rule: 'application_manifest' },
      );
    }
  const todo = groups.filter((g) => g.drafts.length > 0);
  if (todo.length === 0) return;
  editManifestFile(
    catalog.file.path,
    (doc) => {
      for (const { repo, drafts } of todo) {
        const seq = ensureSeq(doc, [...repo.yamlPath!, 'components']) as unknown as {
          items: Array<{ flow?: boolean }>;
          add(v: unknown): void;
        };
        // A new item takes the style of the list's last one: `- { name: x, path: y }` stays one line.
        const flow = Boolean(seq.items[seq.items.length - 1]?.flow);
        for (const d of drafts) seq.add(doc.createNode(entryOf(d), { flow }));
      }
    },
    catalog.file.maxBytes,
  );
}
