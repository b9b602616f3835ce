import { distance } from 'fastest-levenshtein';

/**
 * Names close to `value`: the same name in another case, or within an edit distance of about a third of its
 * length (one edit for short names). Closest first, at most `limit`; none when nothing is close.
 */
export function didYouMean(value: string, candidates: Iterable<string>, limit = 3): string[] {
  const v = value.toLowerCase();
  const max = Math.max(1, Math.floor(value.length / 3));
  const scored: Array<[string, number]> = [];
  for (const c of new Set(candidates)) {
    if (c === value) continue;
    const d = c.toLowerCase() === v ? 0 : distance(v, c.toLowerCase());
    if (d <= max) scored.push([c, d]);
  }
  scored.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  return scored.slice(0, limit).map(([c]) => c);
}

/** `; did you mean 'a' or 'b'?`, or nothing. */
export function suggestionText(suggestions: string[]): string {
  return suggestions.length === 0 ? '' : `; did you mean ${suggestions.map((s) => `'${s}'`).join(' or ')}?`;
}
