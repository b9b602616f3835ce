// A YAML text edit turned into patch operations: the semantic difference between the draft's text and the edited
// text, so a text edit joins the draft like a field edit (listed, undoable, saved through the comment-keeping
// patch). Only what changed becomes an operation: untouched keys, and redacted secrets left as they were, send
// nothing. Comments edited in the text are not operations and are not saved (the file keeps its own).
import { parseDocument } from 'yaml';

/** A patch operation (the shape of api/config-studio's PatchOperation, repeated here so that this file imports
 *  nothing of the UI: the node-side tests import it directly). */
export interface PatchOperation {
  op: 'set' | 'unset' | 'append' | 'remove';
  path: string;
  value?: unknown;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON pointer segment: `~` and `/` escaped (RFC 6901). */
export const segment = (s: string | number): string => String(s).replace(/~/g, '~0').replace(/\//g, '~1');

/** The name (else id) a list item is addressed by, as the server's `itemSegment` does; undefined when none. */
function itemName(v: unknown): string | undefined {
  if (!isObject(v)) return undefined;
  const n = v.name ?? v.id;
  return typeof n === 'string' && !/^\d+$/.test(n) && n !== '-' ? n : undefined;
}

/** Every item has a name, and no name repeats: the list can be matched item by item. */
function namedList(list: unknown[]): Map<string, unknown> | undefined {
  const byName = new Map<string, unknown>();
  for (const v of list) {
    const n = itemName(v);
    if (n === undefined || byName.has(n)) return undefined;
    byName.set(n, v);
  }
  return byName;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}

/**
 * The operations that turn `before` into `after`. Iterative (a large manifest is deep). Mappings compare key by
 * key; lists of uniquely named items match by name (a removed item is unset, a new one appended, a changed one
 * compared further); a list that only grew gets appends; any other changed list is set whole.
 */
export function diffOperations(before: unknown, after: unknown): PatchOperation[] {
  const ops: PatchOperation[] = [];
  const stack: Array<{ path: string; a: unknown; b: unknown }> = [{ path: '', a: before, b: after }];
  while (stack.length > 0) {
    const { path, a, b } = stack.pop()!;
    if (deepEqual(a, b)) continue;
    if (isObject(a) && isObject(b)) {
      const next: typeof stack = [];
      for (const k of Object.keys(a))
        if (!Object.hasOwn(b, k)) ops.push({ op: 'unset', path: `${path}/${segment(k)}` });
      for (const [k, v] of Object.entries(b)) {
        const p = `${path}/${segment(k)}`;
        if (!Object.hasOwn(a, k)) ops.push({ op: 'set', path: p, value: v });
        else next.push({ path: p, a: a[k], b: v });
      }
      stack.push(...next.reverse());
      continue;
    }
    if (Array.isArray(a) && Array.isArray(b) && path !== '') {
      const na = namedList(a);
      const nb = namedList(b);
      if (na && nb) {
        const next: typeof stack = [];
        for (const name of na.keys())
          if (!nb.has(name)) ops.push({ op: 'unset', path: `${path}/${segment(name)}` });
        for (const [name, v] of nb) {
          if (na.has(name)) next.push({ path: `${path}/${segment(name)}`, a: na.get(name), b: v });
          else ops.push({ op: 'append', path, value: v });
        }
        stack.push(...next.reverse());
        continue;
      }
      if (b.length > a.length && a.every((v, i) => deepEqual(v, b[i]))) {
        for (const v of b.slice(a.length)) ops.push({ op: 'append', path, value: v });
        continue;
      }
    }
    if (path === '') {
      // The whole document changed kind (a list, a scalar): no operation addresses the root.
      throw new Error('the document must stay a mapping (key: value lines at the top level)');
    }
    ops.push({ op: 'set', path, value: b });
  }
  return ops;
}

/** A YAML syntax error of the edited text, with its line. */
export interface TextError {
  line?: number;
  message: string;
}

/** Parses YAML text into plain data, or the first syntax error with its line. */
export function parseYaml(text: string): { data: unknown } | { error: TextError } {
  const doc = parseDocument(text);
  const err = doc.errors[0];
  if (err) {
    const line = err.linePos?.[0]?.line;
    return { error: { ...(line === undefined ? {} : { line }), message: err.message.split('\n')[0]! } };
  }
  try {
    const data = doc.toJS({ maxAliasCount: 100 }) ?? {};
    return { data };
  } catch (e) {
    return { error: { message: (e as Error).message } };
  }
}

/** The operations a text edit adds to the draft, or what stops it (a syntax error, a document that is not a map). */
export function textEditOperations(
  draftText: string,
  editedText: string,
): { ops: PatchOperation[] } | { error: TextError } {
  const before = parseYaml(draftText);
  if ('error' in before)
    return { error: { message: `the draft itself does not parse: ${before.error.message}` } };
  const after = parseYaml(editedText);
  if ('error' in after) return after;
  if (!isObject(after.data))
    return { error: { message: 'the document must be a mapping (key: value lines)' } };
  try {
    return { ops: diffOperations(before.data, after.data) };
  } catch (e) {
    return { error: { message: (e as Error).message } };
  }
}
