import type { Document } from 'yaml';
import type * as z from 'zod';
import { ValidationError } from '../infra/index.js';
import { APPCONFIG_WHAT, appConfigIssues, readAppConfigData } from './appconfig.js';
import { redactValueForPath } from './appconfig-redact.js';
import { type AppConfig, AppConfigSchema } from './appconfig-schema.js';
import { throwIssues } from './manifest-file.js';
import { yaml } from './yaml-lib.js';
import { renderKeepingSource, snapshotYaml } from './yaml-save.js';
import { parseYamlSource } from './yaml-source.js';

export interface AppConfigPatchOp {
  op: 'set' | 'unset';
  /** Dotted key path, e.g. `state.backend` or `providers.jira.organization`. */
  path: string;
  /** The value as typed by a user; coerced to the schema's type at `path`. Required for `set`. */
  value?: string;
}

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
  let cur = unwrap(AppConfigSchema);
  for (const seg of path) {
    const def = defOf(cur);
    let next: z.ZodType | undefined;
    if (def.type === 'object') next = Object.hasOwn(def.shape!, seg) ? def.shape![seg] : undefined;
    else if (def.type === 'record') next = def.valueType;
    if (!next) return undefined;
    cur = unwrap(next);
  }
  return cur;
}

function fail(path: string, value: string | undefined, rule: string, message: string): never {
  const shown = value === undefined ? undefined : redactValueForPath(path, value);
  const what = shown === undefined ? path : `${path} to '${shown}'`;
  throw new ValidationError(`cannot set ${what}: ${message}`, { path, value: shown, rule });
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

function ensureRootMap(doc: Document): void {
  if (doc.contents === null || (yaml().isScalar(doc.contents) && doc.contents.value === null)) {
    doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  } else if (!yaml().isMap(doc.contents)) {
    throw new ValidationError(`${APPCONFIG_WHAT} must be a YAML mapping to be edited`, {
      rule: 'schema.type',
    });
  }
}

function setIn(doc: Document, path: string[], value: unknown): void {
  ensureRootMap(doc);
  // An intermediate key that holds nothing (`state:`) becomes a mapping; setIn creates missing ones itself.
  for (let i = 1; i < path.length; i++) {
    const node = doc.getIn(path.slice(0, i), true);
    if (node === undefined) break;
    if (!yaml().isMap(node)) {
      const map = doc.createNode({});
      if (yaml().isScalar(node)) {
        map.comment = node.comment;
        map.commentBefore = node.commentBefore;
      }
      doc.setIn(path.slice(0, i), map);
    }
  }
  const existing = doc.getIn(path, true);
  if (yaml().isScalar(existing) && (value === null || typeof value !== 'object')) {
    // Keeps the node's quoting style and comments; yaml quotes a string that would otherwise read as another type.
    existing.value = value;
    return;
  }
  const node = doc.createNode(value);
  if ((yaml().isSeq(existing) || yaml().isMap(existing)) && (yaml().isSeq(node) || yaml().isMap(node))) {
    node.flow = existing.flow;
    node.comment = existing.comment;
    node.commentBefore = existing.commentBefore;
  }
  if (yaml().isSeq(existing) && yaml().isSeq(node)) {
    // New list items take the quoting of the old ones (`['agent/']` stays single-quoted).
    const style = existing.items.find((x) => yaml().isScalar(x))?.type;
    for (const item of node.items)
      if (style && yaml().isScalar(item) && typeof item.value === 'string') item.type = style;
  }
  doc.setIn(path, node);
}

function unsetIn(doc: Document, path: string[]): void {
  for (let i = 0; i < path.length; i++) {
    if (!yaml().isMap(i === 0 ? doc.contents : doc.getIn(path.slice(0, i), true))) return;
  }
  doc.deleteIn(path);
  // Drop parents the unset left empty, unless a comment hangs on them.
  for (let i = path.length - 1; i >= 1; i--) {
    const parent = doc.getIn(path.slice(0, i), true);
    if (!yaml().isMap(parent) || parent.items.length > 0 || parent.comment || parent.commentBefore) break;
    doc.deleteIn(path.slice(0, i));
  }
}

/**
 * Applies set/unset operations to config text, keeping comments, key order and quoting; validates the result.
 * Throws ValidationError naming the path, the value and the rule when a path is unknown or a value is invalid.
 */
export function patchAppConfigText(
  text: string,
  ops: readonly AppConfigPatchOp[],
  file = 'hub.config.yaml',
): { text: string; config: AppConfig } {
  const doc = parseYamlSource(text, file, APPCONFIG_WHAT).doc;
  const before = snapshotYaml(text, doc);
  for (const op of ops) {
    const path = op.path.split('.');
    if (path.some((seg) => seg === ''))
      fail(op.path, op.value, 'path', 'not a key path (use dots, e.g. state.backend)');
    const schema = schemaAt(path);
    if (op.op === 'unset') {
      if (!schema && !(path.length === 1 && LEGACY_TOP_KEYS.has(path[0]!))) {
        fail(op.path, undefined, 'unknown_key', `unknown key '${op.path}'`);
      }
      unsetIn(doc, path);
      continue;
    }
    if (!schema) fail(op.path, op.value, 'unknown_key', `unknown key '${op.path}'`);
    if (op.value === undefined) fail(op.path, undefined, 'required', 'a value is required');
    setIn(doc, path, coerce(op.path, schema, op.value));
  }
  const out = renderKeepingSource(before, doc);
  const { src, data } = readAppConfigData(out, file);
  const parsed = AppConfigSchema.safeParse(data);
  if (!parsed.success) {
    const issues = appConfigIssues(parsed.error, src);
    for (const iss of issues) {
      const op = ops.find(
        (o) =>
          o.op === 'set' &&
          (iss.path === o.path || iss.path.startsWith(`${o.path}.`) || iss.path.startsWith(`${o.path}[`)),
      );
      if (op) {
        const where = iss.path === op.path ? '' : `${iss.path}: `;
        const shown = redactValueForPath(op.path, op.value!);
        throw new ValidationError(`cannot set ${op.path} to '${shown}': ${where}${iss.message}`, {
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
