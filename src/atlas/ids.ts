/** One segment of a local id: characters outside `[A-Za-z0-9_.-]` become `_` (runs of them one `_`). */
export function idSegment(text: string): string {
  const s = text.replace(/[^A-Za-z0-9_.-]+/g, '_');
  return s === '' ? '_' : s;
}

/** `src/app/main.ts` -> `src.app.main.ts`: a path as a local id (folders joined by `.`). */
export function pathId(path: string): string {
  return path.split('/').map(idSegment).join('.');
}

/**
 * Gives every entry a distinct id: the first holder of an id keeps it, later ones get `-2`, `-3`, ... in the
 * order given (sorted by file and line, so the result is the same on every run).
 */
export function distinctIds<T>(items: readonly T[], idOf: (t: T) => string): Array<{ item: T; id: string }> {
  const used = new Map<string, number>();
  return items.map((item) => {
    const base = idOf(item);
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    let id = n === 1 ? base : `${base}-${n}`;
    while (n > 1 && used.has(id)) id = `${id}-${n}`;
    if (n > 1) used.set(id, 1);
    return { item, id };
  });
}
