import { ValidationError } from '../infra/index.js';
import { TASK_LIMITS } from './schema.js';

/**
 * Rule of graph and node ids: letters, digits, `_`, `-` and single dots, starting with a letter or digit, at most
 * 63 characters. Ids name store documents (`tasks/<graph_id>`) and, joined as `<graph>.<node>`, the ACL task id
 * that fills branch names: so no `/`, no `..`, no trailing dot, no leading `-`.
 */
export const TASK_ID_RE = /^[A-Za-z0-9](?:[A-Za-z0-9_-]|\.(?!\.))*$/;
export const TASK_ID_RULE = `[A-Za-z0-9][A-Za-z0-9_.-]* without '..' or a trailing '.', at most ${TASK_LIMITS.id_chars} characters`;

const shown = (s: string) => (s.length > 80 ? `${s.slice(0, 80)}...` : s);

/** Checks a graph or node id; `field` names it in the error (`graph_id`, `node_id`, `nodes[3].node_id`). */
export function checkTaskGraphId(id: string, field: string, what = 'id'): string {
  if (id.length > TASK_LIMITS.id_chars || !TASK_ID_RE.test(id) || id.endsWith('.'))
    throw new ValidationError(`${field}: '${shown(id)}' is not a valid ${what}; use ${TASK_ID_RULE}`, {
      field,
      value: shown(id),
      rule: TASK_ID_RULE,
    });
  return id;
}

/** Longest slug made from a title, leaving room for a `-<n>` suffix within the id limit. */
const MAX_SLUG = 48;

/** The id a title gives: lowercase, runs of anything but letters and digits become `-`, at most 48; else `node`. */
export function titleSlug(title: string, fallback = 'node'): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/**
 * Hands out ids: `base`, then `base-2`, `base-3`... skipping every id already taken. Remembers the last suffix
 * per base, so 10,000 equal titles cost 10,000 steps, not 50 million.
 */
export function createIdAllocator(taken: Iterable<string>): (base: string) => string {
  const used = new Set(taken);
  const next = new Map<string, number>();
  return (base) => {
    let id = base;
    let n = next.get(base) ?? 1;
    while (used.has(id)) {
      n++;
      id = `${base}-${n}`;
    }
    next.set(base, n);
    used.add(id);
    return id;
  };
}

/** The ACL task id of a node's holdings (branch, lease, worktree, claim): `<graph_id>.<node_id>`. */
export const aclTaskId = (graphId: string, nodeId: string): string => `${graphId}.${nodeId}`;
