import { NotFoundError } from '../infra/index.js';
import { formatPointer, type PatchSegment } from './patch-operation.js';
import { branchFor, childSchema, type JsonSchema, jsonTypeOf, typeName } from './schema-view.js';

/**
 * One node of `config tree`: where it is (a JSON pointer Config Studio can send back in a patch operation), what
 * the schema says of it, and what the file says. Leaves carry `value` (the file's, else the default, else null);
 * mappings and lists carry `children`. A field the file leaves out is listed with `set: false` and no children.
 */
export interface TreeNode {
  path: string;
  key: string;
  type: string;
  set: boolean;
  required: boolean;
  value?: unknown;
  default?: unknown;
  enum?: unknown[];
  description?: string;
  /** A key the schema does not know (config validate reports it). */
  unknown?: boolean;
  children?: TreeNode[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The segment of list item `k`: its name (else id) when unique in the list and not all digits, else its index. */
export function itemSegment(list: readonly unknown[], k: number): string {
  const key = (v: unknown) => {
    if (!isObject(v)) return undefined;
    const n = v.name ?? v.id;
    return typeof n === 'string' ? n : undefined;
  };
  const own = key(list[k]);
  if (own === undefined || /^\d+$/.test(own) || own === '-') return String(k);
  return list.filter((v) => key(v) === own).length === 1 ? own : String(k);
}

interface Place {
  segs: PatchSegment[];
  key: string;
  js: JsonSchema | undefined;
  required: boolean;
}

/**
 * The schema-annotated tree of `raw` (the file's data as written, before defaults), or of the subtree at `at`.
 * Iterative: a manifest of thousands of repos is deep and wide, never a reason to exhaust the stack.
 */
export function configTree(raw: unknown, js: JsonSchema, at: readonly PatchSegment[] = []): TreeNode {
  const start = locate(raw, js, at);
  const root = makeNode(start.place, start.value, start.set);
  type Work = { node: TreeNode; place: Place; value: unknown };
  const stack: Work[] = [{ node: root, place: start.place, value: start.value }];
  // A mapping the file leaves out, asked for by its own path, lists its fields (all unset): Config Studio
  // expands it one level at a time. Elsewhere an unset field has no children (the tree stays the file's size).
  const unsetRoot = !start.set && at.length > 0 && start.place.js?.properties !== undefined;
  while (stack.length > 0) {
    const { node, place, value } = stack.pop()!;
    if (node === root && unsetRoot) {
      node.children = Object.entries(place.js?.properties ?? {}).map(([k, childJs]) =>
        makeNode({ segs: [...place.segs, k], key: k, js: childJs, required: false }, undefined, false),
      );
      continue;
    }
    if (!node.set || !(isObject(value) || Array.isArray(value))) continue;
    const s = place.js ? branchFor(place.js, value) : undefined;
    const work: Work[] = [];
    const add = (key: string, js: JsonSchema | undefined, v: unknown, set: boolean) => {
      const child: Place = {
        segs: [...place.segs, key],
        key,
        js,
        required: !Array.isArray(value) && Boolean(s?.required?.includes(key)),
      };
      const n = makeNode(child, v, set);
      if (set && s && !js) n.unknown = true;
      work.push({ node: n, place: child, value: v });
    };
    if (Array.isArray(value)) {
      for (let k = 0; k < value.length; k++) add(itemSegment(value, k), s?.items, value[k], true);
    } else {
      for (const [k, v] of Object.entries(value)) add(k, s ? childSchema(s, k) : undefined, v, true);
      // The fields the file leaves out: what Config Studio offers to set.
      for (const [k, childJs] of Object.entries(s?.properties ?? {}))
        if (!Object.hasOwn(value, k)) add(k, childJs, undefined, false);
    }
    node.children = work.map((w) => w.node);
    stack.push(...work);
  }
  return root;
}

function makeNode(place: Place, value: unknown, set: boolean): TreeNode {
  const s = place.js ? branchFor(place.js, set ? value : undefined) : undefined;
  const node: TreeNode = {
    path: formatPointer(place.segs),
    key: place.key,
    type: s ? typeName(s) : set ? jsonTypeOf(value) : 'any',
    set,
    required: place.required,
  };
  const leaf =
    !(isObject(value) || Array.isArray(value)) && !(s && /object|array|map/.test(node.type) && !set);
  if (leaf) node.value = set ? value : (place.js?.default ?? null);
  if (place.js?.default !== undefined) node.default = place.js.default;
  if (s?.enum) node.enum = s.enum;
  const description = s?.description ?? place.js?.description;
  if (description) node.description = description;
  return node;
}

/** Walks `at` down the data and the schema; a segment that names nothing is a NotFoundError naming the path. */
function locate(
  raw: unknown,
  js: JsonSchema,
  at: readonly PatchSegment[],
): { place: Place; value: unknown; set: boolean } {
  let value: unknown = raw ?? {};
  let s: JsonSchema | undefined = js;
  const segs: string[] = [];
  for (const seg of at) {
    const cur: JsonSchema | undefined = s ? branchFor(s, value) : undefined;
    if (Array.isArray(value)) {
      const k = /^\d+$/.test(seg)
        ? Number(seg)
        : value.findIndex((_, i) => itemSegment(value as unknown[], i) === seg);
      if (k < 0 || k >= value.length) throw missing(at, seg);
      segs.push(itemSegment(value, k));
      value = value[k];
      s = cur?.items;
    } else if (isObject(value) && (Object.hasOwn(value, seg) || cur?.properties?.[seg])) {
      segs.push(seg);
      s = cur ? childSchema(cur, seg) : undefined;
      if (!Object.hasOwn(value, seg)) {
        if (seg !== at[at.length - 1]) throw missing(at, seg);
        return { place: { segs, key: seg, js: s, required: false }, value: undefined, set: false };
      }
      value = value[seg];
    } else throw missing(at, seg);
  }
  return {
    place: { segs, key: segs[segs.length - 1] ?? '', js: s, required: at.length === 0 },
    value,
    set: true,
  };
}

function missing(at: readonly PatchSegment[], seg: string): NotFoundError {
  const path = formatPointer(at);
  return new NotFoundError(`config tree: nothing at ${path} ('${seg}' names no key or item)`, {
    field: 'path',
    value: path,
    rule: 'no_such_path',
  });
}
