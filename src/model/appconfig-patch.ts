import type * as z from 'zod';
import { ValidationError } from '../infra/index.js';
import { APPCONFIG_WHAT, appConfigIssues, readAppConfigData } from './appconfig.js';
import { redactValueForPath } from './appconfig-redact.js';
import { type AppConfig, appConfigSchema } from './appconfig-schema.js';
import { throwIssues } from './manifest-file.js';
import { applyPatchOperation, type PatchFailure, patchFailure } from './patch-document.js';
import { type PatchOperation, parsePatchPath } from './patch-operation.js';
import { renderKeepingSource, snapshotYaml } from './yaml-save.js';
import { parseYamlSource, type SourceIssue } from './yaml-source.js';

/**
 * An operation of the shared patch format (set, unset, append, remove). A string value is read as typed by a
 * user and coerced to the schema's type at its path (`--value 3` for an integer); other JSON values are kept.
 */
export type AppConfigPatchOp = PatchOperation;

/** Top-level legacy keys that may still be unset although the schema no longer has them. */
const LEGACY_TOP_KEYS = new Set(['version', 'default_profile']);
const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  element?: z.ZodType;
};
const defOf = (s: z.ZodType): Def => s._zod.def as unknown as Def;

function unwrap(s: z.ZodType): z.ZodType {
  let cur = s;
  for (;;) {
    const def = defOf(cur);
    if (WRAPPERS.has(def.type) && def.innerType) cur = def.innerType;
    else if (def.type === 'pipe' && def.in) cur = def.in;
    else return cur;
  }
}

/** The (unwrapped) schema at a key path, or undefined when the path is not part of the application config. */
function schemaAt(path: readonly string[]): z.ZodType | undefined {
  let cur = unwrap(appConfigSchema());
  for (const seg of path) {
    const def = defOf(cur);
    let next: z.ZodType | undefined;
    if (def.type === 'object') next = Object.hasOwn(def.shape!, seg) ? def.shape![seg] : undefined;
    else if (def.type === 'record') next = def.valueType;
    else if (def.type === 'array' && (seg === '-' || /^\d+$/.test(seg))) next = def.element;
    if (!next) return undefined;
    cur = unwrap(next);
  }
  return cur;
}

/** How a value shows in a message: secrets redacted, non-strings as JSON. */
function shownValue(path: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return redactValueForPath(path, typeof value === 'string' ? value : JSON.stringify(value));
}

function fail(path: string, value: unknown, rule: string, message: string, verb = 'set'): never {
  const shown = shownValue(path, value);
  const what = shown === undefined ? path : `${path} to '${shown}'`;
  throw new ValidationError(`cannot ${verb} ${what}: ${message}`, { path, value: shown, rule });
}

function parseJson(path: string, value: string, expected: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return fail(path, value, 'type', `expected ${expected} as JSON`);
  }
}

/** Coerces a user-typed string to the type the schema has at `path`; the schema checks the rest. */
function coerce(path: string, schema: z.ZodType, value: string): unknown {
  const def = defOf(schema);
  const v = value.trim();
  switch (def.type) {
    case 'boolean': {
      const b = {
        true: true,
        yes: true,
        on: true,
        '1': true,
        false: false,
        no: false,
        off: false,
        '0': false,
      }[v.toLowerCase()];
      if (b === undefined) fail(path, value, 'type', 'expected a boolean (true or false)');
      return b;
    }
    case 'number':
      if (!/^[+-]?\d+$/.test(v)) fail(path, value, 'type', 'expected an integer');
      return Number(v);
    case 'array': {
      if (v.startsWith('[')) {
        const list = parseJson(path, v, 'a list');
        if (!Array.isArray(list)) fail(path, value, 'type', 'expected a list');
        return list;
      }
      if (defOf(unwrap(def.element!)).type !== 'string') fail(path, value, 'type', 'expected a list as JSON');
      return v === ''
        ? []
        : v
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '');
    }
    case 'object':
    case 'record': {
      const obj = parseJson(path, v, 'a mapping');
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
        fail(path, value, 'type', 'expected a mapping');
      return obj;
    }
    default:
      return value;
  }
}

/** The path split into keys; the dotted form keeps its own message for an empty segment. */
function segmentsOf(op: PatchOperation): string[] {
  if (op.path.startsWith('/')) return parsePatchPath(op.path);
  const path = op.path.split('.');
  if (path.some((seg) => seg === ''))
    fail(op.path, op.value, 'path', 'not a key path (use dots, e.g. state.backend)', op.op);
  return path;
}

/** Checks one operation against the application config's schema and gives its split path and the value to write. */
function prepare(op: PatchOperation): { segs: string[]; value: unknown } {
  const segs = segmentsOf(op);
  const schema = schemaAt(segs);
  if (op.op === 'unset' || (op.op === 'remove' && op.value === undefined)) {
    if (!schema && !(op.op === 'unset' && segs.length === 1 && LEGACY_TOP_KEYS.has(segs[0]!))) {
      fail(op.path, undefined, 'unknown_key', `unknown key '${op.path}'`, op.op);
    }
    return { segs, value: undefined };
  }
  if (!schema) fail(op.path, op.value, 'unknown_key', `unknown key '${op.path}'`, op.op);
  if (op.value === undefined) fail(op.path, undefined, 'required', 'a value is required', op.op);
  // append and remove name the list; their value is one item of it.
  let target = schema;
  if (op.op !== 'set') {
    const def = defOf(schema);
    if (def.type !== 'array') fail(op.path, op.value, 'not_a_list', `${op.path} is not a list`, op.op);
    target = unwrap(def.element!);
  }
  const value = typeof op.value === 'string' ? coerce(op.path, target, op.value) : op.value;
  return { segs, value };
}

/** Where the draft stands: its text (comments kept), and each operation that could not be applied. */
export interface AppConfigDraft {
  text: string;
  failures: PatchFailure[];
}

/**
 * Applies operations to config text, keeping comments, key order and quoting. With `collect`, an operation that
 * cannot be applied is skipped and reported (a preview); without it, the first one throws (a patch).
 */
export function draftAppConfigText(
  text: string,
  ops: readonly PatchOperation[],
  file = 'hub.config.yaml',
  collect = false,
): AppConfigDraft {
  const doc = parseYamlSource(text, file, APPCONFIG_WHAT).doc;
  const before = snapshotYaml(text, doc);
  const failures: PatchFailure[] = [];
  ops.forEach((op, index) => {
    try {
      const { segs, value } = prepare(op);
      const ctx = { index, op, shown: shownValue(op.path, op.value) };
      applyPatchOperation(doc, segs, value, ctx, APPCONFIG_WHAT);
    } catch (err) {
      if (!collect || !(err instanceof ValidationError)) throw err;
      failures.push(patchFailure(err, index, op.path));
    }
  });
  return { text: renderKeepingSource(before, doc), failures };
}

/** The schema issues of config text, each traced to the operation that wrote the path when one did. */
export function appConfigTextIssues(
  text: string,
  ops: readonly PatchOperation[],
  file: string,
): { issues: Array<SourceIssue & { operation?: number }>; config?: AppConfig } {
  const { src, data } = readAppConfigData(text, file);
  const parsed = appConfigSchema().safeParse(data);
  if (parsed.success) return { issues: [], config: parsed.data };
  const issues = appConfigIssues(parsed.error, src).map((iss) => {
    const index = writerOf(ops, iss.path);
    return index === undefined ? iss : { ...iss, operation: index };
  });
  return { issues };
}

/** The set or append operation whose path holds `issuePath`, if any. */
function writerOf(ops: readonly PatchOperation[], issuePath: string): number | undefined {
  const index = ops.findIndex((o) => {
    if (o.op !== 'set' && o.op !== 'append') return false;
    const p = o.path.startsWith('/') ? parsePatchPath(o.path).join('.') : o.path;
    return issuePath === p || issuePath.startsWith(`${p}.`) || issuePath.startsWith(`${p}[`);
  });
  return index < 0 ? undefined : index;
}

/**
 * Applies set/unset/append/remove operations to config text, keeping comments, key order and quoting; validates
 * the result. Throws ValidationError naming the path, the value and the rule when a path is unknown or a value is
 * invalid.
 */
export function patchAppConfigText(
  text: string,
  ops: readonly PatchOperation[],
  file = 'hub.config.yaml',
): { text: string; config: AppConfig } {
  const out = draftAppConfigText(text, ops, file).text;
  const { src, data } = readAppConfigData(out, file);
  const parsed = appConfigSchema().safeParse(data);
  if (!parsed.success) {
    const issues = appConfigIssues(parsed.error, src);
    for (const iss of issues) {
      const index = writerOf(ops, iss.path);
      if (index !== undefined) {
        const op = ops[index]!;
        const where = iss.path === op.path ? '' : `${iss.path}: `;
        const shown = shownValue(op.path, op.value);
        throw new ValidationError(`cannot ${op.op} ${op.path} to '${shown}': ${where}${iss.message}`, {
          path: op.path,
          value: shown,
          rule: iss.rule,
          issues,
        });
      }
    }
    throwIssues(file, issues, APPCONFIG_WHAT);
  }
  return { text: out, config: parsed.data };
}
