// How values look in the tree and the draft list, and how a field's typed input becomes a value.
import { parse } from 'yaml';
import type { PatchOperation, TreeNode } from '../../api/config-studio';

/** A value in one short line: strings as written, the rest as JSON; long ones cut. */
export function showValue(v: unknown): string {
  const s = typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** One line per pending operation: `set /workspace/description = "x"`. */
export function describeOperation(o: PatchOperation): string {
  if (o.value === undefined) return `${o.op} ${o.path}`;
  return `${o.op} ${o.path}${o.op === 'set' ? ' =' : ''} ${showValue(o.value)}`;
}

/** The input a node is edited with. */
export type InputKind =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'enum'
  | 'list'
  | 'map'
  | 'object'
  | 'yaml'
  | 'none';

export function inputKind(n: TreeNode): InputKind {
  if (n.enum && n.enum.length > 0) return 'enum';
  switch (n.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return n.type;
    case 'array':
      return 'list';
    case 'map':
      return 'map';
    case 'object':
      return 'object';
    case 'const':
      return 'none';
    default:
      // Unions (`string | number`, `map | array`) and unknown keys: a YAML value.
      return 'yaml';
  }
}

/**
 * A YAML value typed into a field: `[a, b]`, `{name: x}`, `3`, `true`; text that is not YAML stays the text.
 * `asString` keeps it a string whatever it looks like (items of a list of strings: `"1.0"` is not a number).
 */
export function parseYamlValue(text: string, asString = false): unknown {
  if (asString) return text;
  try {
    const v = parse(text);
    return v === undefined ? null : v;
  } catch {
    return text;
  }
}

/** A secret the server redacted (`***` plus at most four characters): never sent back as a value. */
export const isRedacted = (v: unknown): boolean => typeof v === 'string' && /^\*\*\*.{0,4}$/.test(v);
