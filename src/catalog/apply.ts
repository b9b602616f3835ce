import { RefusedError } from '../infra/index.js';
import { editManifestFile, ensureSeq } from '../model/index.js';
import type { Catalog, CatalogRepo } from './catalog.js';
import type { ComponentDraft } from './init.js';

/**
 * Appends components to `repos[].components[]` of one workspace repo, keeping the file's comments.
 * Application manifests have no repos[] to write into, so applying there is refused.
 */
export function appendComponents(catalog: Catalog, repo: CatalogRepo, drafts: ComponentDraft[]): void {
  if (repo.kind === 'application' || !repo.yamlPath) {
    throw new RefusedError(
      'cannot apply to an application manifest with no workspace repos: add the component under paths[] by hand, or declare workspace.projects[].repos',
      { repository: repo.id, rule: 'application_manifest' },
    );
  }
  if (drafts.length === 0) return;
  editManifestFile(
    catalog.file.path,
    (doc) => {
      const seq = ensureSeq(doc, [...repo.yamlPath!, 'components']) as unknown as {
        items: Array<{ flow?: boolean }>;
        add(v: unknown): void;
      };
      // A new item takes the style of the list's last one: `- { name: x, path: y }` stays one line.
      const flow = Boolean(seq.items[seq.items.length - 1]?.flow);
      for (const d of drafts) {
        const entry = {
          name: d.name,
          path: d.path,
          kind: d.kind,
          ...(d.language ? { language: d.language } : {}),
        };
        const node = doc.createNode(entry, { flow });
        seq.add(node);
      }
    },
    catalog.file.maxBytes,
  );
}
