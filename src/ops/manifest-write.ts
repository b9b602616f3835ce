import { ValidationError, writeFileAtomicSync } from '../infra/index.js';
import { type PatchOperation, readManifestText } from '../model/index.js';
import { manifestDraft } from './config-studio.js';
import type { OpContext } from './context.js';
import { configuredManifestLimit } from './manifest-check.js';

/**
 * Writes patch operations planned by an operation (derived sets, catalog add) through the same draft as
 * `config patch --save`: comments and formatting kept, and nothing written when the result would add a
 * validation error. Without `filesystem`, only the rules that need no checkout count (the catalog gate).
 */
export function writeManifestOperations(
  ctx: OpContext,
  operations: PatchOperation[],
  filesystem: boolean,
): void {
  if (operations.length === 0) return;
  const path = ctx.workspace().file.path;
  const onDisk = readManifestText(path, configuredManifestLimit(ctx)).text;
  const d = manifestDraft(ctx, path, onDisk, operations, false, filesystem);
  const blocking = d.errors.filter((e) => e.new !== false);
  if (blocking.length > 0) {
    const first = blocking[0]!;
    throw new ValidationError(
      `the change would make the manifest invalid: ${first.path}: ${first.message}${blocking.length > 1 ? ` (and ${blocking.length - 1} more)` : ''}`,
      { rule: first.rule, issues: blocking },
    );
  }
  if (d.text !== onDisk) writeFileAtomicSync(path, d.text);
  ctx.invalidate();
}
