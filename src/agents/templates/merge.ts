/**
 * How an overlay's template.yaml changes the layer below it: JSON Merge Patch (RFC 7386) plus two list
 * operators, so that the common edits need no copy of the bundled list.
 *
 * - a map merges key by key, recursively; a key set to `null` is removed;
 * - a scalar or a list replaces the value below it whole (RFC 7386);
 * - `key+: [items]` appends the items to the list `key` (after any replacement in the same layer), skipping items
 *   already present;
 * - `key-: [items]` removes those items from the list `key` (equal items, compared as JSON).
 *
 * In one layer a plain `key` is applied first, then `key-`, then `key+`.
 */

type Obj = Record<string, unknown>;
type Path = Array<string | number>;

/** A merge rule an overlay broke, at the path of the overlay's own key (for its line number). */
export class MergeIssue extends Error {
  constructor(
    readonly path: Path,
    message: string,
    readonly rule: string,
  ) {
    super(message);
  }
}

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

export const isPlainObject = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The layer `patch` applied over `base`; neither is changed. Throws MergeIssue. */
export function mergeLayer(base: unknown, patch: unknown, at: Path = []): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Obj = isPlainObject(base) ? { ...base } : {};
  const ops: Array<[string, '+' | '-', unknown]> = [];
  for (const [key, value] of Object.entries(patch)) {
    if (RESERVED.has(key)) throw new MergeIssue([...at, key], `key '${key}' is not allowed`, 'reserved_key');
    const op = key.length > 1 ? key.slice(-1) : '';
    if (op === '+' || op === '-') {
      ops.push([key.slice(0, -1), op, value]);
      continue;
    }
    if (value === null) delete out[key];
    else out[key] = mergeLayer(out[key], value, [...at, key]);
  }
  // Removals before appends, so `key-` and `key+` of one layer never cancel each other's items.
  ops.sort((a, b) => (a[1] === b[1] ? 0 : a[1] === '-' ? -1 : 1));
  for (const [key, op, value] of ops) {
    const where = [...at, `${key}${op}`];
    if (RESERVED.has(key)) throw new MergeIssue(where, `key '${key}' is not allowed`, 'reserved_key');
    if (!Array.isArray(value))
      throw new MergeIssue(where, `'${key}${op}' takes a list of items`, 'list_operator_value');
    const current = out[key];
    if (current !== undefined && !Array.isArray(current))
      throw new MergeIssue(
        where,
        `'${key}${op}' needs '${key}' to be a list (it is ${typeof current})`,
        'list_operator_target',
      );
    const list = (current as unknown[] | undefined) ?? [];
    out[key] =
      op === '+'
        ? [
            ...list,
            ...value.filter(
              (item, i) => !list.some((x) => same(x, item)) && value.findIndex((y) => same(y, item)) === i,
            ),
          ]
        : list.filter((item) => !value.some((x) => same(x, item)));
  }
  return out;
}
