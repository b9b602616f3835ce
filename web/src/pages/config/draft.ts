// The draft of each file: its pending patch operations, in order. Kept in sessionStorage so a reload of the tab
// does not lose unsaved work (never localStorage: a draft of a secret stays with its tab).
import { useCallback, useState } from 'react';
import type { ConfigTarget, PatchOperation } from '../../api/config-studio';

export type Drafts = Record<ConfigTarget, PatchOperation[]>;

const KEY = 'hub.config-studio.draft';

function load(): Drafts {
  try {
    const raw = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<Drafts> | null;
    return {
      hub: Array.isArray(raw?.hub) ? raw.hub : [],
      appconfig: Array.isArray(raw?.appconfig) ? raw.appconfig : [],
    };
  } catch {
    return { hub: [], appconfig: [] };
  }
}

export interface DraftActions {
  drafts: Drafts;
  add: (target: ConfigTarget, ops: PatchOperation[]) => void;
  /** Undoes one pending operation (by its index). */
  undo: (target: ConfigTarget, index: number) => void;
  discard: (target: ConfigTarget) => void;
}

export function useDrafts(): DraftActions {
  const [drafts, setDrafts] = useState<Drafts>(load);
  const update = useCallback((target: ConfigTarget, f: (ops: PatchOperation[]) => PatchOperation[]) => {
    setDrafts((d) => {
      const next = { ...d, [target]: f(d[target]) };
      try {
        sessionStorage.setItem(KEY, JSON.stringify(next));
      } catch {
        // storage full or denied: the draft still lives in memory
      }
      return next;
    });
  }, []);
  return {
    drafts,
    add: useCallback((t, ops) => update(t, (cur) => [...cur, ...ops]), [update]),
    undo: useCallback((t, i) => update(t, (cur) => cur.filter((_, k) => k !== i)), [update]),
    discard: useCallback((t) => update(t, () => []), [update]),
  };
}

/**
 * What the tree marks: each path pending operations touch, with the value of the last `set` there, or the names of
 * the other operations (`append, remove`).
 */
export function pendingMarks(ops: readonly PatchOperation[]): Map<string, { op: string; value?: unknown }> {
  const marks = new Map<string, { op: string; value?: unknown }>();
  for (const o of ops) {
    if (o.op === 'set') {
      marks.set(o.path, { op: 'set', value: o.value });
      continue;
    }
    const prev = marks.get(o.path);
    const names = prev && prev.op !== 'set' ? prev.op.split(', ') : [];
    if (!names.includes(o.op)) names.push(o.op);
    marks.set(o.path, { op: names.join(', ') });
  }
  return marks;
}

/** A path as a validation error names it (`/a/b`, `a.b`, `a[0]`) as the JSON pointer of a tree node. */
export function pointerOf(path: string): string {
  if (path === '' || path === '/') return '';
  if (path.startsWith('/')) return path;
  return `/${path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .join('/')}`;
}
