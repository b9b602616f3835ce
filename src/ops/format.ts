/** Small text helpers for human CLI output (tables and key/value blocks). */

export function table(rows: string[][], header?: string[]): string {
  const all = header ? [header, ...rows] : rows;
  if (all.length === 0) return '';
  // A loop, not Math.max(...column): spreading a 100,000-row column overflows the call stack.
  const widths = all[0]!.map((_, i) => all.reduce((w, r) => Math.max(w, (r[i] ?? '').length), 0));
  return all
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function keyValues(obj: Record<string, unknown>): string {
  return Object.entries(obj)
    .filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('\n');
}

/** A table with its footer line (a page note) when there is one. */
export function withFooter(body: string, footer: string): string {
  return footer ? (body ? `${body}\n${footer}` : footer) : body;
}
