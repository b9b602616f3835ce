import type { CoordDeps } from './documents.js';
import { listObjectives } from './objectives.js';
import type { Objective } from './schemas.js';

export interface ResumePick {
  /** The best objective, or null when none matches. */
  objective: Objective | null;
  /** Every match, best first. */
  ranked: Objective[];
}

const time = (s: string) => {
  const t = Date.parse(s);
  return Number.isNaN(t) ? 0 : t;
};

/** True when `query` (case-insensitive) occurs in the id, title, a repo or the notes. */
export function objectiveMatches(o: Objective, query: string): boolean {
  const q = query.toLowerCase();
  return [o.id, o.title, ...o.repos, o.human_notes ?? '', o.agent_notes ?? ''].some((s) =>
    s.toLowerCase().includes(q),
  );
}

/** Ranks objectives: in_progress first, then most recently updated, then by id. */
export function rankObjectives(objectives: readonly Objective[], query?: string): ResumePick {
  const q = query?.trim();
  const ranked = objectives
    .filter((o) => !q || objectiveMatches(o, q))
    .sort(
      (a, b) =>
        Number(b.status === 'in_progress') - Number(a.status === 'in_progress') ||
        time(b.updated_at) - time(a.updated_at) ||
        a.id.localeCompare(b.id),
    );
  return { objective: ranked[0] ?? null, ranked };
}

export async function resumeObjective(deps: CoordDeps, query?: string): Promise<ResumePick> {
  return rankObjectives(await listObjectives(deps), query);
}

/** A plain-text briefing of one objective, for `--format detailed`. */
export function describeObjective(o: Objective): string {
  const block = (label: string, text?: string) =>
    text?.trim()
      ? [
          `${label}:`,
          ...text
            .trimEnd()
            .split('\n')
            .map((l) => `  ${l}`),
        ]
      : [];
  return [
    `${o.id}: ${o.title} [${o.status}]`,
    `updated: ${o.updated_at} (created ${o.created_at})`,
    ...(o.repos.length ? [`repos: ${o.repos.join(', ')}`] : []),
    ...(o.mr_url ? [`mr: ${o.mr_url}`] : []),
    ...block('acceptance', o.acceptance),
    ...block('human notes', o.human_notes),
    ...block('agent notes', o.agent_notes),
  ].join('\n');
}
