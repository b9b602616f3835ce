import { isDeepStrictEqual } from 'node:util';
import type { Document, Node, YAMLMap, YAMLSeq } from 'yaml';
import { ValidationError } from '../infra/index.js';
import type { PatchOperation, PatchSegment } from './patch-operation.js';
import { yaml } from './yaml-lib.js';

/** A path of the document: keys of mappings, indexes of lists. */
export type DocPath = Array<string | number>;

/** Context for an error: which operation of the draft, and how to show its value (secrets redacted). */
export interface PatchErrorContext {
  index: number;
  op: PatchOperation;
  shown?: string;
}

/** An operation of a draft that could not be applied: reported by a preview, with the operation's index. */
export interface PatchFailure {
  operation: number;
  path: string;
  rule: string;
  message: string;
}

/** The failure a ValidationError thrown while applying operation `index` stands for. */
export function patchFailure(err: ValidationError, index: number, path: string): PatchFailure {
  return { operation: index, path, rule: String(err.details?.rule ?? 'invalid'), message: err.message };
}

export function patchError(ctx: PatchErrorContext, rule: string, message: string): ValidationError {
  return new ValidationError(`${ctx.op.op} ${ctx.op.path}: ${message}`, {
    field: 'operations',
    operation: ctx.index,
    path: ctx.op.path,
    ...(ctx.shown === undefined ? {} : { value: ctx.shown }),
    rule,
  });
}

const nodeAt = (doc: Document, path: DocPath): unknown =>
  path.length === 0 ? doc.contents : doc.getIn(path, true);

/** The key or name a list item is addressed by: its `name`, else its `id`. */
function itemKey(item: unknown): string | undefined {
  if (!yaml().isMap(item)) return undefined;
  for (const k of ['name', 'id']) {
    const v = item.get(k);
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return undefined;
}

/**
 * The document path of `segs`: a list segment is an index (digits), `-` (one past the end: only as the last
 * segment, and only where `allowEnd`) or the `name` (else `id`) of one item. Below a missing node the remaining
 * segments are mapping keys, which a `set` creates.
 */
export function resolveSegments(
  doc: Document,
  segs: readonly PatchSegment[],
  ctx: PatchErrorContext,
  allowEnd = false,
): DocPath {
  const out: DocPath = [];
  let node: unknown = doc.contents;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    if (yaml().isSeq(node)) {
      const seq = node as YAMLSeq;
      let index: number;
      if (seg === '-') {
        if (!allowEnd || i !== segs.length - 1)
          throw patchError(
            ctx,
            'path',
            "'-' (past the end of a list) may only end the path of set or append",
          );
        index = seq.items.length;
      } else if (/^\d+$/.test(seg)) {
        index = Number(seg);
        if (index >= seq.items.length)
          throw patchError(
            ctx,
            'no_item',
            `the list has ${seq.items.length} item(s); there is no index ${seg}`,
          );
      } else {
        const found = seq.items.flatMap((it, k) => (itemKey(it) === seg ? [k] : []));
        if (found.length !== 1)
          throw patchError(
            ctx,
            found.length === 0 ? 'no_item' : 'ambiguous_item',
            found.length === 0
              ? `no item named '${seg}' in the list at ${formatDocPath(out)}`
              : `${found.length} items are named '${seg}' in the list at ${formatDocPath(out)}: use the index`,
          );
        index = found[0]!;
      }
      out.push(index);
      node = seq.items[index];
    } else {
      out.push(seg);
      node = yaml().isMap(node) ? (node as YAMLMap).get(seg, true) : undefined;
    }
  }
  return out;
}

function formatDocPath(path: DocPath): string {
  return path.length === 0 ? '(root)' : path.join('.');
}

function ensureRootMap(doc: Document, what: string): void {
  if (doc.contents === null || (yaml().isScalar(doc.contents) && doc.contents.value === null)) {
    doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  } else if (!yaml().isMap(doc.contents)) {
    throw new ValidationError(`${what} must be a YAML mapping to be edited`, { rule: 'schema.type' });
  }
}

/** A new list item in the style of the list's other items: one-line maps stay one line, quoting is kept. */
function itemNode(doc: Document, seq: YAMLSeq, value: unknown): Node {
  const last = seq.items[seq.items.length - 1] as { flow?: boolean } | undefined;
  const node = doc.createNode(value, { flow: Boolean(seq.flow || last?.flow) }) as Node;
  const style = seq.items.find((x) => yaml().isScalar(x))?.type;
  if (style && yaml().isScalar(node) && typeof node.value === 'string') node.type = style;
  return node;
}

/** Writes `value` at `path`, keeping the replaced node's quoting, flow style and comments. */
export function setAt(doc: Document, path: DocPath, value: unknown, what: string): void {
  ensureRootMap(doc, what);
  // An intermediate key that holds a value (`state:`, `state: x`) becomes a mapping; setIn creates missing ones.
  for (let i = 1; i < path.length; i++) {
    const node = doc.getIn(path.slice(0, i), true);
    if (node === undefined) break;
    if (yaml().isMap(node) || (yaml().isSeq(node) && typeof path[i] === 'number')) continue;
    const map = doc.createNode({});
    if (yaml().isScalar(node)) {
      map.comment = node.comment;
      map.commentBefore = node.commentBefore;
    }
    doc.setIn(path.slice(0, i), map);
  }
  const parent = nodeAt(doc, path.slice(0, -1));
  if (yaml().isSeq(parent) && path[path.length - 1] === parent.items.length) {
    parent.add(itemNode(doc, parent, value));
    return;
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

/** Deletes the key or item at `path`; a mapping the delete left empty goes too, unless a comment hangs on it. */
export function unsetAt(doc: Document, path: DocPath): void {
  for (let i = 0; i < path.length; i++) {
    const node = nodeAt(doc, path.slice(0, i));
    if (!yaml().isMap(node) && !(yaml().isSeq(node) && typeof path[i] === 'number')) return;
  }
  doc.deleteIn(path);
  for (let i = path.length - 1; i >= 1; i--) {
    const parent = doc.getIn(path.slice(0, i), true);
    if (!yaml().isMap(parent) || parent.items.length > 0 || parent.comment || parent.commentBefore) break;
    doc.deleteIn(path.slice(0, i));
  }
}

/** Adds `value` as the last item of the list at `path`, creating the list when the key is missing. */
export function appendAt(
  doc: Document,
  path: DocPath,
  value: unknown,
  ctx: PatchErrorContext,
  what: string,
): void {
  const existing = nodeAt(doc, path);
  if (existing === undefined || (yaml().isScalar(existing) && existing.value === null)) {
    setAt(doc, path, [value], what);
    return;
  }
  if (!yaml().isSeq(existing)) throw patchError(ctx, 'not_a_list', 'append needs a list there');
  existing.add(itemNode(doc, existing, value));
}

/**
 * Deletes the list item at `path`, or with `value` every item of the list at `path` equal to it (a string also
 * matches an item named or identified by it). Nothing to delete is an error: the draft is stale.
 */
export function removeAt(doc: Document, path: DocPath, value: unknown, ctx: PatchErrorContext): void {
  if (value === undefined) {
    const parent = nodeAt(doc, path.slice(0, -1));
    if (!yaml().isSeq(parent) || typeof path[path.length - 1] !== 'number')
      throw patchError(ctx, 'not_a_list_item', 'remove deletes list items (use unset for a key)');
    doc.deleteIn(path);
    return;
  }
  const list = nodeAt(doc, path);
  if (!yaml().isSeq(list)) throw patchError(ctx, 'not_a_list', 'remove with a value needs a list there');
  const hits: number[] = [];
  list.items.forEach((item, k) => {
    const js = yaml().isNode(item) ? item.toJSON() : item;
    if (isDeepStrictEqual(js, value) || (typeof value === 'string' && itemKey(item) === value)) hits.push(k);
  });
  if (hits.length === 0) throw patchError(ctx, 'no_match', 'no item of the list equals the value');
  for (const k of hits.reverse()) list.delete(k);
}

/**
 * Applies one operation whose path is already split and whose value is already what to write. `what` names the
 * file in errors (`manifest`, `application config`).
 */
export function applyPatchOperation(
  doc: Document,
  segs: readonly PatchSegment[],
  value: unknown,
  ctx: PatchErrorContext,
  what: string,
): void {
  const path = resolveSegments(doc, segs, ctx, ctx.op.op === 'set');
  switch (ctx.op.op) {
    case 'set':
      setAt(doc, path, value, what);
      return;
    case 'unset':
      unsetAt(doc, path);
      return;
    case 'append':
      appendAt(doc, path, value, ctx, what);
      return;
    case 'remove':
      removeAt(doc, path, value, ctx);
      return;
  }
}
