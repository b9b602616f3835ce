import type { Document, Node } from 'yaml';
import { writeFileAtomicSync } from '../infra/index.js';
import { findLegacyKeys } from './legacy.js';
import { type ManifestFile, parseManifestText } from './manifest-file.js';
import { DEFAULT_MANIFEST_MAX_BYTES, manifestTooLarge } from './manifest-size.js';
import { readUtf8File } from './utf8-file.js';
import { yaml } from './yaml-lib.js';
import { renderKeepingSource, sameJs, snapshotYaml } from './yaml-save.js';
import { parseYamlSource, yamlLimitsFor } from './yaml-source.js';

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

/** An edit rendered but not written: the file before, the text after, and that text parsed and schema-checked. */
export interface ManifestEditPlan {
  before: string;
  text: string;
  file: ManifestFile;
}

/**
 * Renders an edit of the manifest through the YAML Document API without writing it: legacy spellings
 * normalized, lines the edit did not change keeping their bytes, the result parsed and schema-checked (a
 * ValidationError listing the issues when it fails). A caller that checks more before writing uses this.
 */
export function planManifestEdit(
  path: string,
  edit: (doc: Document.Parsed) => void,
  maxBytes = DEFAULT_MANIFEST_MAX_BYTES,
): ManifestEditPlan {
  const text = readUtf8File(path, 'manifest', { maxBytes, tooLarge: manifestTooLarge });
  const src = parseYamlSource(text, path, 'manifest', { limits: yamlLimitsFor(maxBytes) });
  const before = snapshotYaml(text, src.doc);
  edit(src.doc);
  normalizeLegacyInDocument(src.doc);
  // The kept-lines text is parsed once: that parse both checks it holds the edited data and validates it.
  let checked: { text: string; file: ManifestFile } | undefined;
  const next = renderKeepingSource(before, src.doc, (candidate) => {
    try {
      // The Document path: the check compares the candidate's Document with the edited one.
      const file = parseManifestText(candidate, path, { maxBytes, documentOnly: true });
      if (!file.source || !sameJs(file.source.doc, src.doc)) return false;
      checked = { text: candidate, file };
      return true;
    } catch {
      return false;
    }
  });
  const file = checked?.text === next ? checked.file : parseManifestText(next, path, { maxBytes });
  return { before: text, text: next, file };
}

/**
 * Edits the manifest on disk through the YAML Document API, normalizes legacy spellings, re-validates the result
 * and writes it atomically; lines the edit did not change keep their bytes. Nothing is written on failure.
 */
export function editManifestFile(
  path: string,
  edit: (doc: Document.Parsed) => void,
  maxBytes = DEFAULT_MANIFEST_MAX_BYTES,
): ManifestFile {
  const plan = planManifestEdit(path, edit, maxBytes);
  if (plan.text !== plan.before) writeFileAtomicSync(path, plan.text);
  return plan.file;
}

/** Finds a sequence under `path`, creating an empty block sequence when absent. */
export function ensureSeq(doc: Document, path: Array<string | number>): Node {
  const existing = doc.getIn(path, true);
  if (yaml().isSeq(existing)) return existing;
  doc.setIn(path, doc.createNode([]));
  return doc.getIn(path, true) as Node;
}

export { findLegacyKeys };
