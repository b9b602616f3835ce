import { distance } from 'fastest-levenshtein';
import type { Catalog } from './catalog.js';

/** At most this many names are listed in an error's details (the rest are counted). */
const KNOWN_LIMIT = 50;

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

/**
 * The message and details of a project/repo filter that names nothing: which of the two is unknown, the close
 * names (`suggestions`), and the known ones. Every surface shows the same text.
 */
export function scopeMiss(
  catalog: Catalog,
  project: string | undefined,
  repo: string | undefined,
  rules: { project: string; repo: string } = { project: 'unknown_scope', repo: 'unknown_scope' },
): { message: string; details: Record<string, unknown> } {
  const projects = [...new Set(catalog.repos.map((r) => r.project))];
  const known_projects = projects.slice(0, KNOWN_LIMIT);
  if (project && !projects.includes(project)) {
    const suggestions = didYouMean(project, projects);
    return {
      message: `no project '${project}' in the manifest${suggestionText(suggestions)}`,
      details: { field: 'project', value: project, rule: rules.project, suggestions, known_projects },
    };
  }
  const repos = [...new Set(catalog.reposMatching(project).map((r) => r.name))];
  const suggestions = didYouMean(repo ?? '', repos);
  const where = project ? ` in project '${project}'` : ' in the manifest';
  return {
    message: `no repository '${repo ?? ''}'${where}${suggestionText(suggestions)}`,
    details: {
      field: 'repo',
      value: repo,
      ...(project ? { project } : {}),
      rule: rules.repo,
      suggestions,
      known_repos: repos.slice(0, KNOWN_LIMIT),
      known_projects,
    },
  };
}
