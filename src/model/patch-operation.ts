import * as z from 'zod';
import { ValidationError } from '../infra/index.js';

/**
 * The one patch operation format of hub's YAML files (`.hub.yml` through `config patch|preview`, hub.config.yaml
 * through `appconfig patch` and its preview): what Config Studio sends as its draft.
 *
 * - `set` writes `value` at `path`, creating missing mappings on the way (a last segment `-` appends to a list);
 * - `unset` deletes the key or list item at `path` (nothing there: nothing to do);
 * - `append` adds `value` as the last item of the list at `path` (created when missing);
 * - `remove` deletes the list item at `path`, or, with `value`, every item of the list at `path` equal to it (a
 *   string also matches an item whose `name` or `id` is that string); nothing matched is an error.
 */
export const PATCH_OPS = ['set', 'unset', 'append', 'remove'] as const;
export type PatchOpName = (typeof PATCH_OPS)[number];

/** Longest path accepted; a path names keys of one file, never more. */
export const MAX_PATCH_PATH = 1024;
/** Most operations in one draft. */
export const MAX_PATCH_OPERATIONS = 1000;

export const PatchPathSchema = z
  .string()
  .min(1)
  .max(MAX_PATCH_PATH)
  .describe(
    'JSON-pointer-like path: /workspace/projects/core/repos/api/description (a list item by index or by its name), or dotted: state.backend.',
  );

/** One flat object (not a union per op): its type reads the same for every op, and its errors name the field. */
export const PatchOperationSchema = z
  .strictObject({
    op: z.enum(PATCH_OPS).describe('set, unset, append or remove.'),
    path: PatchPathSchema,
    value: z.unknown().optional().describe('Any JSON value: required by set and append, refused by unset.'),
  })
  .superRefine((o, ctx) => {
    if ((o.op === 'set' || o.op === 'append') && o.value === undefined)
      ctx.addIssue({ code: 'custom', path: ['value'], message: `a value is required with op ${o.op}` });
    if (o.op === 'unset' && o.value !== undefined)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'unset takes no value' });
  });
export type PatchOperation = z.infer<typeof PatchOperationSchema>;

export const PatchOperationsSchema = z
  .array(PatchOperationSchema)
  .max(MAX_PATCH_OPERATIONS)
  .describe('Patch operations, applied in order: {op: set|unset|append|remove, path, value}.');

/** A path segment as written: a key, a list index, a list item's name, or `-` (past the end of a list). */
export type PatchSegment = string;

/**
 * Splits a path into its segments. A path starting with `/` is a JSON pointer (RFC 6901: `~1` is `/`, `~0` is
 * `~`); any other path is dotted (`state.backend`), which cannot name a key holding a dot. Empty segments are
 * refused: no key of either file is empty.
 */
export function parsePatchPath(path: string): PatchSegment[] {
  if (path.startsWith('/')) {
    const segs = path
      .slice(1)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (segs.some((s) => s === ''))
      throw new ValidationError(`path '${path}' has an empty segment`, {
        field: 'path',
        value: path,
        rule: 'path',
      });
    if (/~[^01]|~$/.test(path))
      throw new ValidationError(`path '${path}': '~' must be written ~0 (and '/' inside a key ~1)`, {
        field: 'path',
        value: path,
        rule: 'path',
      });
    return segs;
  }
  const segs = path.split('.');
  if (segs.some((s) => s === ''))
    throw new ValidationError(`path '${path}' is not a key path (use dots, e.g. state.backend)`, {
      field: 'path',
      value: path,
      rule: 'path',
    });
  return segs;
}

/** A JSON pointer for segments (the form `config tree` prints and Config Studio sends back). */
export function formatPointer(segs: ReadonlyArray<string | number>): string {
  return segs.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
