// The schema tree: every node of the file with its key, value, type and default, set or not. One tab stop (the
// tree); the active row follows aria-activedescendant so the list can be virtualised (a full manifest of
// thousands of repositories stays cheap). Keys as in the WAI-ARIA tree pattern: Up/Down, Left/Right (collapse,
// expand, parent, first child), Home/End, Page Up/Down, Enter (edit the field), * (expand siblings).
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef } from 'react';
import type { TreeNode } from '../../api/config-studio';
import { showValue } from './values';

export interface FlatRow {
  node: TreeNode;
  depth: number;
  parent?: string;
  expandable: boolean;
  posinset: number;
  setsize: number;
}

/** A mapping the file leaves out: its fields load from the server when it is expanded (`tree?path=`). */
export const isLazy = (n: TreeNode): boolean => !n.set && n.type === 'object' && n.children === undefined;

/** The rows on screen: the nodes whose ancestors are all expanded, depth first. Iterative. */
export function visibleRows(root: TreeNode, expanded: ReadonlySet<string>): FlatRow[] {
  const rows: FlatRow[] = [];
  const kids = root.children ?? [];
  const stack: Array<{ node: TreeNode; depth: number; parent?: string; pos: number; size: number }> = [];
  for (let i = kids.length - 1; i >= 0; i--)
    stack.push({ node: kids[i]!, depth: 1, pos: i + 1, size: kids.length });
  while (stack.length > 0) {
    const { node, depth, parent, pos, size } = stack.pop()!;
    const children = node.children ?? [];
    const expandable = children.length > 0 || isLazy(node);
    rows.push({ node, depth, parent, expandable, posinset: pos, setsize: size });
    if (expandable && expanded.has(node.path))
      for (let i = children.length - 1; i >= 0; i--)
        stack.push({
          node: children[i]!,
          depth: depth + 1,
          parent: node.path,
          pos: i + 1,
          size: children.length,
        });
  }
  return rows;
}

export interface SchemaTreeProps {
  root: TreeNode;
  label: string;
  expanded: ReadonlySet<string>;
  onExpandedChange: (next: Set<string>) => void;
  active: string | undefined;
  onActiveChange: (path: string) => void;
  /** Enter / double click: edit the active field. */
  onEdit: (path: string) => void;
  /** Expanding a lazy node (an unset mapping) loads its fields. */
  onLoadChildren: (path: string) => void;
  /** Paths a pending operation touches, with the pending value of a `set` on exactly that path. */
  pending: ReadonlyMap<string, { value?: unknown; op: string }>;
}

const ROW = 28;

export function SchemaTree({
  root,
  label,
  expanded,
  onExpandedChange,
  active,
  onActiveChange,
  onEdit,
  onLoadChildren,
  pending,
}: SchemaTreeProps) {
  const id = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => visibleRows(root, expanded), [root, expanded]);
  const index = Math.max(
    0,
    rows.findIndex((r) => r.node.path === active),
  );
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 12,
  });
  // Keep the active row in view when the keyboard moves it.
  useEffect(() => {
    if (rows.length > 0) v.scrollToIndex(index, { align: 'auto' });
  }, [index, rows.length, v]);

  const toggle = (path: string, open: boolean) => {
    const row = rows.find((r) => r.node.path === path);
    if (open && row && isLazy(row.node)) onLoadChildren(path);
    const next = new Set(expanded);
    if (open) next.add(path);
    else next.delete(path);
    onExpandedChange(next);
  };
  const go = (i: number) => {
    const row = rows[Math.min(rows.length - 1, Math.max(0, i))];
    if (row) onActiveChange(row.node.path);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const row = rows[index];
    if (!row) return;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / ROW) - 1);
    switch (e.key) {
      case 'ArrowDown':
        go(index + 1);
        break;
      case 'ArrowUp':
        go(index - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(rows.length - 1);
        break;
      case 'PageDown':
        go(index + page);
        break;
      case 'PageUp':
        go(index - page);
        break;
      case 'ArrowRight':
        if (row.expandable && !expanded.has(row.node.path)) toggle(row.node.path, true);
        else if (row.expandable) go(index + 1);
        break;
      case 'ArrowLeft':
        if (row.expandable && expanded.has(row.node.path)) toggle(row.node.path, false);
        else if (row.parent !== undefined) onActiveChange(row.parent);
        break;
      case '*': {
        const next = new Set(expanded);
        for (const r of rows) if (r.parent === row.parent && r.expandable) next.add(r.node.path);
        onExpandedChange(next);
        break;
      }
      case 'Enter':
      case ' ':
        onEdit(row.node.path);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const rowId = (i: number) => `${id}-row-${i}`;
  const items = v.getVirtualItems();
  return (
    <div
      ref={scroller}
      className="stree"
      role="tree"
      aria-label={label}
      tabIndex={0}
      aria-activedescendant={rows.length > 0 ? rowId(index) : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const r = rows[item.index]!;
          const n = r.node;
          const open = expanded.has(n.path);
          const mark = pending.get(n.path);
          // An unset field shows its default, if the schema has one (not a bare null).
          const leaf = !r.expandable && n.value !== undefined && (n.set || n.default !== undefined);
          return (
            // The tree is the one tab stop and handles the keys of its rows (aria-activedescendant).
            // biome-ignore lint/a11y/useFocusableInteractive: rows are descendants of the focused tree.
            // biome-ignore lint/a11y/useKeyWithClickEvents: the tree's onKeyDown is the rows' keyboard.
            <div
              key={n.path}
              id={rowId(item.index)}
              role="treeitem"
              aria-level={r.depth}
              aria-posinset={r.posinset}
              aria-setsize={r.setsize}
              aria-expanded={r.expandable ? open : undefined}
              aria-selected={item.index === index}
              data-path={n.path}
              className={`stree__row${item.index === index ? ' stree__row--active' : ''}${n.set ? '' : ' stree__row--unset'}`}
              style={{
                transform: `translateY(${item.start}px)`,
                paddingLeft: `${(r.depth - 1) * 1.1 + 0.3}rem`,
              }}
              onClick={() => {
                onActiveChange(n.path);
                if (r.expandable) toggle(n.path, !open);
              }}
              onDoubleClick={() => onEdit(n.path)}
            >
              <span className="stree__twisty" aria-hidden="true">
                {r.expandable ? (open ? '▾' : '▸') : ''}
              </span>
              <span className="stree__key">{n.key}</span>
              {leaf && (
                <span className="stree__value">
                  {n.set ? showValue(n.value) : <span className="stree__default">{showValue(n.value)}</span>}
                </span>
              )}
              {mark && (
                <span className="stree__pending" title={`pending ${mark.op}`}>
                  {mark.op === 'set' && 'value' in mark ? `→ ${showValue(mark.value)}` : `(${mark.op})`}
                </span>
              )}
              <span className="stree__meta">
                <span className="stree__type">{n.type}</span>
                {!n.set && <span className="stree__unset">unset</span>}
                {n.unknown && <span className="stree__unknown">unknown key</span>}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
