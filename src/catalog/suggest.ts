import { didYouMean, suggestionText } from '../infra/index.js';
import type { Catalog } from './catalog.js';

// The room's own door keeps offering them: every room that suggests names imports them from the catalog.
export { didYouMean, suggestionText };

/** At most this many names are listed in an error's details (the rest are counted). */
const KNOWN_LIMIT = 50;

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
