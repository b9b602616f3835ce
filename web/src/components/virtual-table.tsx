import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useRef } from 'react';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  /** CSS width of the column, e.g. `12rem` or `20%`; columns without one share the rest. */
  width?: string;
  render: (row: Row) => ReactNode;
}

export interface VirtualTableProps<Row> {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  /** Accessible name of the table. */
  label: string;
  /** Fixed row height in px (default 32): fixed heights keep 5,000 rows cheap to lay out. */
  rowHeight?: number;
  /** Height of the scrolling area (default `60vh`). */
  height?: string;
  empty?: ReactNode;
}

/**
 * A real <table> whose body renders only the rows in view (@tanstack/react-virtual) between two spacer rows, so
 * 5,000 rows scroll smoothly. The header stays in place (sticky). The scrolling area is one tab stop: arrow keys,
 * Page Up/Down, Home and End scroll it as they scroll any focused scroller.
 */
export function VirtualTable<Row>({
  rows,
  columns,
  rowKey,
  label,
  rowHeight = 32,
  height = '60vh',
  empty,
}: VirtualTableProps<Row>) {
  const scroller = useRef<HTMLElement>(null);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 10,
  });
  const items = v.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = v.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  return (
    <section
      ref={scroller}
      className="vtable"
      style={{ maxHeight: height }}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to scroll by keyboard.
      tabIndex={0}
      aria-label={label}
    >
      <table className="vtable__table" aria-rowcount={rows.length + 1}>
        <colgroup>
          {columns.map((c) => (
            <col key={c.key} style={c.width ? { width: c.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((c) => (
              <th key={c.key} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="vtable__empty">
                {empty ?? 'Nothing to show.'}
              </td>
            </tr>
          )}
          {top > 0 && <tr className="vtable__spacer" style={{ height: top }} />}
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <tr key={rowKey(row)} aria-rowindex={item.index + 2} style={{ height: rowHeight }}>
                {columns.map((c) => (
                  <td key={c.key}>{c.render(row)}</td>
                ))}
              </tr>
            );
          })}
          {bottom > 0 && <tr className="vtable__spacer" style={{ height: bottom }} />}
        </tbody>
      </table>
    </section>
  );
}
