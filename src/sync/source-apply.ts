import { editManifestFile, ensureSeq, type Manifest, yaml } from '../model/index.js';
import type { PlanEdits } from './source-plan.js';

/**
 * Writes a source plan into the manifest through the YAML Document API: entries are appended, changed fields
 * set, removed entries deleted; every other line keeps its bytes and comments. The result is validated before
 * it is written (nothing is written when it would not load). `maxBytes` is the size limit the manifest was read
 * under (the configured one for a manifest past the default).
 */
export function applySourceEdits(
  manifestPath: string,
  manifest: Manifest,
  edits: PlanEdits,
  maxBytes?: number,
): void {
  if (edits.add.length + edits.update.length + edits.remove.length === 0) return;
  const projects = manifest.workspace?.projects ?? [];
  const indexOf = (name: string) => projects.findIndex((p) => p.name === name);
  editManifestFile(
    manifestPath,
    (doc) => {
      for (const u of edits.update) {
        const base = ['workspace', 'projects', indexOf(u.project), 'repos', u.index];
        for (const [k, v] of Object.entries(u.set)) doc.setIn([...base, k], doc.createNode(v));
      }
      const removals = [...edits.remove].sort((a, b) => b.index - a.index);
      for (const r of removals) doc.deleteIn(['workspace', 'projects', indexOf(r.project), 'repos', r.index]);
      for (const a of edits.add) {
        const seq = ensureSeq(doc, ['workspace', 'projects', indexOf(a.project), 'repos']);
        if (!yaml().isSeq(seq)) continue;
        // `repos: []` becomes a block list: one entry per line reads and diffs better than a flow list.
        if (seq.flow && seq.items.length === 0) seq.flow = false;
        seq.items.push(doc.createNode(a.entry));
      }
    },
    maxBytes,
  );
}
