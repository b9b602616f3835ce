import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  /** CSS width of the column, e.g. `12rem` or `20%`; columns without one share the rest. */
  width?: string;
  /** The cells wrap (tag chips, long text) and their row grows to fit them; other cells keep one line. */
  wrap?: boolean;
  /** Least width of a column without `width` (default 8rem), so a narrow screen scrolls the table sideways
   * instead of squeezing the column to nothing. */
  minWidth?: string;
  render: (row: Row) => ReactNode;
}

export interface VirtualTableProps<Row> {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  /** Accessible name of the table. */
  label: string;
  /**
   * Row height in px (default 32): fixed unless a column wraps, then the least height (each row drawn is measured;
   * rows not yet drawn count as this).
   */
  rowHeight?: number;
  /** Index of a row to scroll into view (when it or the rows change): the rows not in view are not in the page. */
  scrollTo?: number;
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
  scrollTo,
}: VirtualTableProps<Row>) {
  const scroller = useRef<HTMLElement>(null);
  const head = useRef<HTMLTableSectionElement>(null);
  // The sticky header sits above the first row: rows start below it, and a row scrolled to is not put under it.
  const [headHeight, setHeadHeight] = useState(rowHeight);
  useLayoutEffect(() => {
    const h = head.current?.getBoundingClientRect().height;
    if (h) setHeadHeight(h);
  }, []);
  const measured = columns.some((c) => c.wrap);
  // The fixed layout gives columns without a width what is left, which is nothing on a phone: the table is at
  // least as wide as its fixed columns (percentages aside) plus each other column's least width.
  const least = columns
    .map((c) => (c.width ? (c.width.endsWith('%') ? undefined : c.width) : (c.minWidth ?? '8rem')))
    .filter(Boolean);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 10,
    paddingStart: headHeight,
    scrollPaddingStart: headHeight,
  });
  useEffect(() => {
    if (scrollTo !== undefined && scrollTo >= 0 && scrollTo < rows.length)
      v.scrollToIndex(scrollTo, { align: 'auto' });
  }, [scrollTo, rows, v]);
  const items = v.getVirtualItems();
  const top = (items[0]?.start ?? headHeight) - headHeight;
  const bottom = v.getTotalSize() - (items[items.length - 1]?.end ?? headHeight);
  return (
    <section
      ref={scroller}
      className="vtable"
      style={{ maxHeight: height }}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to scroll by keyboard.
      tabIndex={0}
      aria-label={label}
    >
      <table
        className="vtable__table"
        aria-rowcount={rows.length + 1}
        style={least.length ? { minWidth: `calc(${least.join(' + ')})` } : undefined}
      >
        <colgroup>
          {columns.map((c) => (
            <col key={c.key} style={c.width ? { width: c.width } : undefined} />
          ))}
        </colgroup>
        <thead ref={head}>
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
              <tr
                key={rowKey(row)}
                aria-rowindex={item.index + 2}
                data-index={item.index}
                ref={measured ? v.measureElement : undefined}
                style={{ height: rowHeight }}
              >
                {columns.map((c) => (
                  <td key={c.key} className={c.wrap ? 'vtable__wrap' : undefined}>
                    {c.render(row)}
                  </td>
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
