import { ValidationError } from '../infra/index.js';
import { normalizeLegacyInDocument } from './manifest-edit.js';
import { DEFAULT_MANIFEST_MAX_BYTES } from './manifest-size.js';
import { applyPatchOperation, type PatchFailure, patchFailure } from './patch-document.js';
import { type PatchOperation, parsePatchPath } from './patch-operation.js';
import { renderKeepingSource, snapshotYaml } from './yaml-save.js';
import { parseYamlSource, yamlLimitsFor } from './yaml-source.js';

/** A draft of the manifest: the text a save would write (comments kept), and the operations that failed. */
export interface ManifestDraft {
  text: string;
  failures: PatchFailure[];
}

/**
 * Applies patch operations to manifest text. Values are written as given (JSON); the schema and the catalog rules
 * judge the result afterwards (`config preview` reports, `config patch --save` refuses). Lines the operations did
 * not change keep their bytes; legacy spellings are renamed as on every manifest save. An operation that cannot be
 * applied (its path names no item, a list is not there) is skipped and reported when `collect`, else thrown.
 * `maxBytes` is the manifest size limit the text was read under (the YAML budgets scale with it).
 */
export function draftManifestText(
  text: string,
  ops: readonly PatchOperation[],
  file: string,
  collect = false,
  maxBytes = DEFAULT_MANIFEST_MAX_BYTES,
): ManifestDraft {
  const src = parseYamlSource(text, file, 'manifest', { limits: yamlLimitsFor(maxBytes) });
  const before = snapshotYaml(text, src.doc);
  const failures: PatchFailure[] = [];
  ops.forEach((op, index) => {
    try {
      applyPatchOperation(src.doc, parsePatchPath(op.path), op.value, { index, op }, 'manifest');
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      if (!collect) throw addOperation(err, index);
      failures.push(patchFailure(err, index, op.path));
    }
  });
  normalizeLegacyInDocument(src.doc);
  return { text: renderKeepingSource(before, src.doc), failures };
}

function addOperation(err: ValidationError, index: number): ValidationError {
  if (err.details?.operation !== undefined) return err;
  return new ValidationError(`operation ${index}: ${err.message}`, { ...err.details, operation: index });
}
