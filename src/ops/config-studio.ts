import { resolve } from 'node:path';
import * as z from 'zod';
import type { Problem } from '../catalog/index.js';
import {
  checkJsonBounds,
  INPUT_BOUNDS,
  RefusedError,
  readFileBounded,
  ValidationError,
} from '../infra/index.js';
import {
  draftManifestText,
  formatPath,
  jsonSchemaOf,
  manifestByteLimit,
  type PatchFailure,
  type PatchOperation,
  PatchOperationsSchema,
  withoutDefaults,
  yaml,
} from '../model/index.js';
import { FULL_CONFIG_GUARD } from './config-ops.js';
import type { OpContext } from './context.js';
import { checkManifestFile, configuredManifestLimit } from './manifest-check.js';

/** Config Studio's preview styles (spec: Normalized, Minimal, On disk). */
export const PREVIEW_STYLES = ['normalized', 'minimal', 'on-disk'] as const;
export type PreviewStyle = (typeof PREVIEW_STYLES)[number];

/** Largest operations file read; a draft is a list of edits, never a copy of a big file. */
export const MAX_OPERATIONS_FILE = 1024 * 1024;

export const draftFields = {
  file: z
    .string()
    .min(1)
    .optional()
    .describe('JSON file of patch operations: a list, or {"operations": [...]}.'),
  operations: PatchOperationsSchema.optional(),
};

export const styleField = z
  .enum(PREVIEW_STYLES)
  .optional()
  .describe(
    'normalized (full validated model, the default), minimal (non-default fields only) or on-disk (the file, no draft).',
  );

/** One validation error of a draft: where (a path, a line of the draft), the rule, and the operation behind it. */
export interface DraftError {
  path: string;
  line?: number;
  rule: string;
  message: string;
  operation?: number;
  /** False when the file on disk has the same problem already (a save is refused only for new ones). */
  new?: boolean;
}

/**
 * The draft's operations: `operations` as given, or read from `file`. On the CLI the user named the file; over
 * MCP and HTTP its real path must lie inside the workspace, so a remote caller cannot read other files through it.
 */
export function operationsOf(
  ctx: OpContext,
  input: { file?: string; operations?: PatchOperation[] },
): PatchOperation[] {
  if (input.file !== undefined && input.operations !== undefined)
    throw new ValidationError('pass either file or operations, not both', {
      field: 'file',
      rule: 'one_of',
    });
  if (input.file === undefined) return input.operations ?? [];
  const bytes = readFileBounded(resolve(ctx.cwd, input.file), {
    maxBytes: MAX_OPERATIONS_FILE,
    root: ctx.readStdin ? undefined : ctx.root(),
    rootName: 'the workspace',
    insideRule: 'inside_workspace',
    field: 'file',
    shown: input.file,
  });
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new ValidationError(`file ${input.file}: not JSON (${(err as Error).message})`, {
      field: 'file',
      value: input.file,
      rule: 'json',
    });
  }
  // The file is input as the operations argument is: held to the same depth and size bounds before the schema,
  // the YAML document and the comparisons walk it (recursively).
  checkJsonBounds(data, INPUT_BOUNDS, `file ${input.file}`);
  const list =
    typeof data === 'object' && data !== null && !Array.isArray(data) && 'operations' in data
      ? (data as { operations: unknown }).operations
      : data;
  const parsed = PatchOperationsSchema.safeParse(list);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      path: formatPath(['operations', ...(i.path as Array<string | number>)]),
      message: i.message,
      rule: `schema.${i.code}`,
    }));
    throw new ValidationError(
      `file ${input.file}: ${issues[0]!.path}: ${issues[0]!.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`,
      { field: 'file', value: input.file, rule: 'patch_operations', issues },
    );
  }
  return parsed.data;
}

export const failureErrors = (failures: PatchFailure[]): DraftError[] =>
  failures.map((f) => ({ path: f.path, rule: f.rule, message: f.message, operation: f.operation }));

/** Repositories a manifest's data lists (the whole-config guard counts them before printing it). */
export function repoCount(data: unknown): number {
  const projects = (data as { workspace?: { projects?: unknown } } | null)?.workspace?.projects;
  if (!Array.isArray(projects)) return 0;
  let n = 0;
  for (const p of projects) {
    const repos = (p as { repos?: unknown } | null)?.repos;
    if (Array.isArray(repos)) n += repos.length;
  }
  return n;
}

export function guardFull(count: number, confirm: boolean | undefined, what: string): void {
  if (count > FULL_CONFIG_GUARD && !confirm)
    throw new RefusedError(
      `${what} covers ${count} repositories (over ${FULL_CONFIG_GUARD}); pass --confirm-full to print all of it, or narrow it with --path`,
      { repo_count: count, limit: FULL_CONFIG_GUARD, rule: 'confirm_full' },
    );
}

const problemKey = (p: Problem) => `${p.rule}\u0000${p.path}\u0000${p.message}`;

export interface ManifestDraftView {
  file: string;
  onDisk: string;
  text: string;
  errors: DraftError[];
  model: unknown;
  repos: number;
}

/**
 * The draft of the manifest at `path`: the operations applied (comments kept), every rule of `config validate`
 * run on it (without `filesystem`, those that need no checkout), each problem marked new unless the file on disk
 * has it already, and the validated model.
 */
export function manifestDraft(
  ctx: OpContext,
  path: string,
  onDisk: string,
  ops: PatchOperation[],
  collect: boolean,
  filesystem = true,
): ManifestDraftView {
  const maxBytes = manifestByteLimit(Buffer.byteLength(onDisk), configuredManifestLimit(ctx));
  const draft = draftManifestText(onDisk, ops, path, collect, maxBytes);
  const { check, file } = checkManifestFile(ctx, path, draft.text, filesystem);
  const existing =
    ops.length === 0
      ? undefined
      : new Set(checkManifestFile(ctx, path, onDisk, filesystem).check.problems.map(problemKey));
  const errors: DraftError[] = [
    ...failureErrors(draft.failures),
    ...check.problems.map((p) => ({
      path: p.path,
      ...(p.line === undefined ? {} : { line: p.line }),
      rule: p.rule,
      message: p.message,
      new: existing ? !existing.has(problemKey(p)) : false,
    })),
  ];
  const repos = file ? repoCount(file.manifest) : repoCount(safeData(draft.text));
  return { file: path, onDisk, text: draft.text, errors, model: file?.manifest ?? null, repos };
}

function safeData(text: string): unknown {
  try {
    return yaml().parse(text, { maxAliasCount: 100 });
  } catch {
    return null;
  }
}

/** The text and model a preview shows in `style`; an invalid draft has no model and shows its own text. */
export function styled(
  style: PreviewStyle,
  which: 'manifest' | 'appconfig',
  onDisk: string,
  draftText: string,
  model: unknown,
): { text: string; model: unknown } {
  if (style === 'on-disk') return { text: onDisk, model: null };
  if (model === null || model === undefined) return { text: draftText, model: null };
  const shown = style === 'minimal' ? withoutDefaults(model, jsonSchemaOf(which)) : model;
  return { text: yaml().stringify(shown, { lineWidth: 0 }), model: shown };
}

/** What a preview of either file answers. */
export interface PreviewResult {
  file: string;
  style: PreviewStyle;
  operations: number;
  /** The draft differs from the file on disk. */
  changed: boolean;
  valid: boolean;
  validation_errors: DraftError[];
  /** The YAML to show in this style (on-disk: the file as it is, without the draft). */
  text: string;
  /** The normalized or minimal model of the draft; null for on-disk and for a draft that does not validate. */
  model: unknown;
}

export function previewHuman(r: PreviewResult): string {
  const head = r.valid
    ? `# ${r.style} preview of ${r.file}${r.changed ? ` (draft: ${r.operations} operation(s))` : ''}`
    : [
        `# draft has ${r.validation_errors.length} validation error(s):`,
        ...errorLines(r.validation_errors),
      ].join('\n');
  return `${head}\n${r.text}`;
}

export function errorLines(errors: DraftError[]): string[] {
  return errors.map(
    (e) =>
      `#   ${e.line ? `line ${e.line}: ` : ''}${e.path}: ${e.message} [${e.rule}]${e.operation === undefined ? '' : ` (operation ${e.operation})`}${e.new === false ? ' (already on disk)' : ''}`,
  );
}
