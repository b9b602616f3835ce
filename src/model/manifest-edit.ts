import type { Document, Node } from 'yaml';
import { writeFileAtomicSync } from '../infra/index.js';
import { findLegacyKeys } from './legacy.js';
import { type ManifestFile, parseManifestText } from './manifest-file.js';
import { yaml } from './yaml-lib.js';
import { parseYamlSource, readUtf8File } from './yaml-source.js';

const LEGACY_KEYS: Record<string, string> = {
  from_endpoint: 'from',
  to_endpoint: 'to',
  agent_prompt: 'agent_instructions',
};

/** Renames legacy keys inside the Document, keeping each pair's position and comments. */
export function normalizeLegacyInDocument(doc: Document): number {
  let renamed = 0;
  yaml().visit(doc, {
    Pair(_key, pair, path) {
      if (!yaml().isScalar(pair.key) || typeof pair.key.value !== 'string') return;
      const next = LEGACY_KEYS[pair.key.value];
      if (!next) return;
      const parent = path[path.length - 1];
      // Keep the current key when both spellings are present; drop the legacy one.
      if (
        yaml().isMap(parent) &&
        parent.items.some((p) => yaml().isPair(p) && yaml().isScalar(p.key) && p.key.value === next)
      ) {
        return yaml().visit.REMOVE;
      }
      const key = new (yaml().Scalar)(next);
      key.commentBefore = pair.key.commentBefore;
      key.comment = pair.key.comment;
      pair.key = key;
      renamed++;
      return undefined;
    },
  });
  return renamed;
}

/**
 * Edits the manifest on disk through the YAML Document API (comments, key order and quoting kept),
 * normalizes legacy spellings, re-validates the result and writes it atomically. Nothing is written on failure.
 */
export function editManifestFile(path: string, edit: (doc: Document.Parsed) => void): ManifestFile {
  const text = readUtf8File(path, 'manifest');
  const src = parseYamlSource(text, path, 'manifest');
  edit(src.doc);
  normalizeLegacyInDocument(src.doc);
  const next = src.doc.toString({ lineWidth: 0 });
  const parsed = parseManifestText(next, path);
  if (next !== text) writeFileAtomicSync(path, next);
  return parsed;
}

/** Finds a sequence under `path`, creating an empty block sequence when absent. */
export function ensureSeq(doc: Document, path: Array<string | number>): Node {
  const existing = doc.getIn(path, true);
  if (yaml().isSeq(existing)) return existing;
  doc.setIn(path, doc.createNode([]));
  return doc.getIn(path, true) as Node;
}

export { findLegacyKeys };
